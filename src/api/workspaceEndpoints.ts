import { createParser } from 'eventsource-parser';
import type { ApiKey, CreatedKey, KeyList, KeyRequest } from '../../machines/apiKeys';
import type { MemberModel, ReplyParameters, TopicSettings } from '../../machines/chatModel';
import type { ConversationChange, ConversationFilter } from '../../machines/conversations';
import type { FeedbackSave, ReplyFeedback } from '../../machines/feedback';
import type { ShareAudience, ShareLink } from '../../machines/share';
import { type HttpClient, HttpError, type UploadProgress } from './http';
import type {
  BillingInfo,
  FileRecord,
  Notification,
  StreamEvents,
  ToolCallDecisionRequest,
  ToolCallDecisionResponse,
  Topic,
  TopicPage,
  TopicSummary,
} from './types';

/** One server-sent event; a token's `id` is the length of the reply's text up to and including it. */
export type StreamEvent = {
  [K in keyof StreamEvents]: { type: K; data: StreamEvents[K]; id?: number };
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
    /**
     * A page of the user's conversations (one project's, the archived ones or the others), or of those
     * matching `query` (archived or not); `cursor` '' is the first page.
     */
    topicPage: (query: string, cursor: string, filter: ConversationFilter, signal?: AbortSignal) =>
      http.get<TopicPage>(
        '/api/v1/topic',
        {
          cursor,
          q: query || undefined,
          project: filter.project ?? undefined,
          archived: filter.archived && !query ? 'true' : undefined,
        },
        signal,
      ),
    topic: (id: string) => http.get<Topic>(`/api/v1/topic/${encodeURIComponent(id)}`),
    /** A new conversation with the bot, in the project when one is given. */
    createTopic: (bot: string, project: string | null) =>
      http.post<Topic>('/api/v1/topic', project ? { bot, project } : { bot }, { returnError: true }),
    /** Moves a conversation into a project or out of one (`project` null), pins or archives it. */
    changeTopic: (id: string, change: ConversationChange | { project: string | null }) =>
      http.patch<TopicSummary>(`/api/v1/topic/${encodeURIComponent(id)}`, change),
    renameTopic: (id: string, title: string) =>
      http.patch<TopicSummary>(`/api/v1/topic/${encodeURIComponent(id)}`, { title }),
    /** The conversation's model or reply settings; answers what it now holds of both. */
    tuneTopic: async (
      id: string,
      change: { model: string } | { parameters: ReplyParameters },
    ): Promise<TopicSettings> => {
      const topic = await http.patch<Topic>(`/api/v1/topic/${encodeURIComponent(id)}`, change);
      return { model: topic.model, parameters: topic.parameters ?? {} };
    },
    /** The catalogue models the member may use, with their prices. */
    models: () => http.get<MemberModel[]>('/api/v1/model'),
    deleteTopic: (id: string) => http.delete<unknown>(`/api/v1/topic/${encodeURIComponent(id)}`),
    /** The conversation's share, if it has one. */
    findShare: async (topicId: string) =>
      (await http.get<ShareLink[]>('/api/v1/share', { topic: topicId }))[0] ?? null,
    /** Shares the branch on screen with the audience; sharing again keeps the link. */
    shareTopic: (topicId: string, audience: ShareAudience) =>
      http.post<ShareLink>(
        `/api/v1/topic/${encodeURIComponent(topicId)}/share`,
        { audience },
        { returnError: true },
      ),
    revokeShare: (id: string) => http.delete<unknown>(`/api/v1/share/${encodeURIComponent(id)}`),
    /** The member's API keys; the server's sentence instead while the organization has API access off. */
    apiKeys: async (): Promise<KeyList> => {
      try {
        return { keys: await http.get<ApiKey[]>('/api/v1/user/me/key') };
      } catch (error) {
        if (error instanceof HttpError && error.code === 'API_ACCESS_DISABLED')
          return { turnedOff: error.message };
        throw error;
      }
    },
    /** A new API key; its name travels RSA-encrypted like every `name` (spec §7). */
    createApiKey: ({ name, expiresAt }: KeyRequest) =>
      http.post<CreatedKey>(
        '/api/v1/user/me/key',
        { name, expiresAt: expiresAt || null },
        { returnError: true },
      ),
    revokeApiKey: (id: string) => http.delete<unknown>(`/api/v1/user/me/key/${encodeURIComponent(id)}`),
    /** The conversation as a Markdown file: every message of the branch on screen, both sides. */
    exportTopic: (id: string) =>
      http.download(`/api/v1/topic/${encodeURIComponent(id)}/export`, { format: 'md' }),
    /**
     * Stops the reply being written in the topic; it is kept as far as it got, marked stopped. A stop
     * that fails is an error: the chat must not take the reply for stopped.
     */
    stopReply: (topicId: string) =>
      http.post<{ stopped: boolean }>(
        `/api/v1/topic/${encodeURIComponent(topicId)}/stop`,
        {},
        { returnError: true },
      ),
    /** The user's Allow (`approve`) or Deny of a tool call waiting for them; answers the step as it now stands. */
    decideToolCall: async (topicId: string, callId: string, approve: boolean) =>
      (
        await http.post<ToolCallDecisionResponse>(
          `/api/v1/topic/${encodeURIComponent(topicId)}/tool-call/${encodeURIComponent(callId)}`,
          { approve } satisfies ToolCallDecisionRequest,
          { returnError: true },
        )
      ).step,
    /** The branch on screen, kept for the next visit. */
    /** The member's thumbs on a reply (`rating` null takes them back); answers what the server keeps. */
    saveFeedback: ({ topicId, messageId, rating, reason }: FeedbackSave) =>
      http.replace<ReplyFeedback | null>(
        `/api/v1/topic/${encodeURIComponent(topicId)}/message/${encodeURIComponent(messageId)}/feedback`,
        reason === undefined ? { rating } : { rating, reason },
      ),
    saveHead: (id: string, head: string) =>
      http.patch<TopicSummary>(`/api/v1/topic/${encodeURIComponent(id)}`, { head }),
    /** Sends a message after `parent` (null: a new first message), with its files, and yields the reply's events. */
    sendMessage: (
      topicId: string,
      text: string,
      parent: string | null,
      signal: AbortSignal,
      files?: string[],
      webSearch?: boolean,
    ) =>
      events(
        http.stream(
          `/api/v1/topic/${encodeURIComponent(topicId)}/message`,
          { text, parent, ...(files?.length ? { files } : {}), ...(webSearch ? { webSearch } : {}) },
          signal,
        ),
      ),
    /** Uploads a file (multipart, field `file`) with its progress. */
    uploadFile: (file: Blob, name: string, onProgress: UploadProgress, signal: AbortSignal) => {
      const body = new FormData();
      body.append('file', file, name);
      return http.upload<FileRecord>('/api/v1/file', body, onProgress, signal);
    },
    deleteFile: (id: string) => http.delete<unknown>(`/api/v1/file/${encodeURIComponent(id)}`),
    /** A file's bytes, or an image's thumbnail. */
    fileContent: (id: string, thumbnail = false) =>
      http.blob(`/api/v1/file/${encodeURIComponent(id)}/content`, thumbnail ? { thumbnail: 1 } : undefined),
    /** Asks for another reply in place of `messageId` (by another of the bot's models) and yields its events. */
    regenerate: (topicId: string, messageId: string, signal: AbortSignal, model?: string) =>
      events(
        http.stream(
          `/api/v1/topic/${encodeURIComponent(topicId)}/message/${encodeURIComponent(messageId)}/regenerate`,
          model ? { model } : {},
          signal,
        ),
      ),
    /** Goes on with the reply `messageId`, which ended early, in the same message; yields what follows its text. */
    continueReply: (topicId: string, messageId: string, signal: AbortSignal) =>
      events(
        http.stream(
          `/api/v1/topic/${encodeURIComponent(topicId)}/message/${encodeURIComponent(messageId)}/continue`,
          {},
          signal,
        ),
      ),
    /** Follows the reply being written in the topic from `offset` characters on; nothing when none is. */
    follow: (topicId: string, offset: number, signal: AbortSignal) =>
      events(http.stream(`/api/v1/topic/${encodeURIComponent(topicId)}/stream`, null, signal, offset)),
  };
}

export type WorkspaceEndpoints = ReturnType<typeof createWorkspaceEndpoints>;

/** The server-sent events of a response as they arrive; none for an empty (204) answer. */
async function* events(response: Promise<ReadableStream<Uint8Array> | null>): AsyncGenerator<StreamEvent> {
  const stream = await response;
  if (!stream) return;
  const queue: StreamEvent[] = [];
  const parser = createParser({
    onEvent: ({ event, data, id }) => {
      queue.push({
        type: (event ?? 'message') as StreamEvent['type'],
        data: JSON.parse(data),
        id: id === undefined ? undefined : Number(id),
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
}
