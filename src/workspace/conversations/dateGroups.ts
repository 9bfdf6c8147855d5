/** The sidebar's sections, newest first. */
export type DateGroup = 'today' | 'yesterday' | 'week' | 'month' | 'older';

export const dateGroupLabels: Record<DateGroup, string> = {
  today: 'Today',
  yesterday: 'Yesterday',
  week: 'Previous 7 days',
  month: 'Previous 30 days',
  older: 'Older',
};

/** Where each section starts: midnight so many calendar days ago, in the user's own time zone. */
const daysBack: [DateGroup, number][] = [
  ['today', 0],
  ['yesterday', 1],
  ['week', 7],
  ['month', 30],
];

function midnightBefore(now: number, days: number): number {
  const date = new Date(now);
  date.setHours(0, 0, 0, 0);
  date.setDate(date.getDate() - days);
  return date.getTime();
}

/** Conversations in their sections by last activity, keeping their order within each. */
export function groupByDate<T extends { updatedAt: string }>(items: T[], now: number) {
  const starts = daysBack.map(([group, days]) => [group, midnightBefore(now, days)] as const);
  const groups = new Map<DateGroup, T[]>();
  for (const item of items) {
    const time = new Date(item.updatedAt).getTime();
    const group = starts.find(([, start]) => time >= start)?.[0] ?? 'older';
    groups.set(group, [...(groups.get(group) ?? []), item]);
  }
  return (Object.keys(dateGroupLabels) as DateGroup[])
    .filter((group) => groups.has(group))
    .map((group) => ({ group, items: groups.get(group) ?? [] }));
}
