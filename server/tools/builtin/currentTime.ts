import { ToolError } from '../types';
import { optionalString } from './arguments';

/** The time now: in UTC (ISO 8601), and in the IANA time zone asked for, spelled out with its offset. */
export async function currentTimeTool(args: Record<string, unknown>, now = new Date()): Promise<string> {
  const timeZone = optionalString(args, 'timezone', 'current_time') ?? 'UTC';
  let local: string;
  try {
    local = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    }).format(now);
  } catch {
    throw new ToolError(`Unknown time zone "${timeZone}": use an IANA name such as Europe/Paris.`);
  }
  return `${now.toISOString()} (UTC)\n${local} in ${timeZone}`;
}
