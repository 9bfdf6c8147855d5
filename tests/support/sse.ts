import { createParser } from 'eventsource-parser';

export interface ServerSentEvent {
  event: string;
  data: Record<string, unknown>;
  /** The event's `id:` field, as a number, when it has one. */
  id?: number;
}

/** Reads a `text/event-stream` response with a real SSE parser, calling back on each event. */
export async function readEvents(
  response: Response,
  onEvent: (event: ServerSentEvent) => void = () => {},
): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  const parser = createParser({
    onEvent: ({ event, data, id }) => {
      const parsed = { event: event ?? 'message', data: JSON.parse(data), ...(id ? { id: Number(id) } : {}) };
      events.push(parsed);
      onEvent(parsed);
    },
  });
  const decoder = new TextDecoder();
  if (!response.body) return events;
  try {
    for await (const bytes of response.body) parser.feed(decoder.decode(bytes, { stream: true }));
  } catch (error) {
    if ((error as Error).name !== 'AbortError') throw error;
  }
  return events;
}
