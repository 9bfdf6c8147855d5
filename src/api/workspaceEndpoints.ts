import { createParser } from 'eventsource-parser';
import type { HttpClient } from './http';
import type { BillingInfo, Notification, StreamEvents, Topic, TopicPage, TopicSummary } from './types';

export type StreamEvent = {
  [K in keyof StreamEvents]: { type: K; data: StreamEvents[K] };
}[keyof StreamEvents];

/**
 * The calls only logged-in screens make: the balance, the notifications, the conversations and their
 * replies. They load with those screens (the event-stream parser with them), not with the landing page.
 */
export function createWorkspaceEndpoints(http: HttpClient) {
  return {
    billing: (userId: string) => http.get<BillingInfo>(`/payment/billing-info/${encodeURIComponent(userId)}`),
    notifications: () => http.get<Notification[]>('/api/v1/notification'),
    markNotificationRead: (id: string) =>
      http.patch<Notification>(`/api/v1/notification/${encodeURIComponent(id)}`, { read: true }),
    /** A page of the user's conversations, or of those matching `query`; `cursor` '' is the first page. */
    topicPage: (query: string, cursor: string, signal?: AbortSignal) =>
      http.get<TopicPage>('/api/v1/topic', { cursor, q: query || undefined }, signal),
    topic: (id: string) => http.get<Topic>(`/api/v1/topic/${encodeURIComponent(id)}`),
    createTopic: (bot: string) => http.post<Topic>('/api/v1/topic', { bot }, { returnError: true }),
    renameTopic: (id: string, title: string) =>
      http.patch<TopicSummary>(`/api/v1/topic/${encodeURIComponent(id)}`, { title }),
    deleteTopic: (id: string) => http.delete<unknown>(`/api/v1/topic/${encodeURIComponent(id)}`),
    /** The conversation as a Markdown file: every message of the branch on screen, both sides. */
    exportTopic: (id: string) =>
      http.download(`/api/v1/topic/${encodeURIComponent(id)}/export`, { format: 'md' }),
    /** Stops the reply being written in the topic; it is kept as far as it got, marked stopped. */
    stopReply: (topicId: string) =>
      http.post<{ stopped: boolean }>(`/api/v1/topic/${encodeURIComponent(topicId)}/stop`, {}),
    /** Sends a message and yields the reply's server-sent events as they arrive. */
    async *sendMessage(topicId: string, text: string, signal: AbortSignal): AsyncGenerator<StreamEvent> {
      const stream = await http.stream(
        `/api/v1/topic/${encodeURIComponent(topicId)}/message`,
        { text },
        signal,
      );
      const queue: StreamEvent[] = [];
      const parser = createParser({
        onEvent: ({ event, data }) => {
          queue.push({
            type: (event ?? 'message') as StreamEvent['type'],
            data: JSON.parse(data),
          } as StreamEvent);
        },
      });
      const reader = stream.getReader();
      const decoder = new TextDecoder();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          parser.feed(decoder.decode(value, { stream: true }));
          while (queue.length) yield queue.shift() as StreamEvent;
        }
      } finally {
        reader.releaseLock();
      }
    },
  };
}

export type WorkspaceEndpoints = ReturnType<typeof createWorkspaceEndpoints>;
