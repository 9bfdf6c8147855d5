import type { HttpClient } from './http';
import { HttpError } from './http';
import type {
  AccountExport,
  AuthResponse,
  BillingInfo,
  Bot,
  ChangePasswordRequest,
  DeleteAccountRequest,
  LoginRequest,
  Notification,
  Organization,
  OtpResponse,
  ProfileChangeRequest,
  ResetPasswordRequest,
  SignupRequest,
  StreamEvents,
  SuccessResponse,
  Topic,
  TopicSummary,
  TranslateResponse,
  User,
  VerifyResponse,
} from './types';

export type StreamEvent = {
  [K in keyof StreamEvents]: { type: K; data: StreamEvents[K] };
}[keyof StreamEvents];

/**
 * An answer that should carry a token and does not is an error (seed-spec §5): signup and login, and
 * likewise a password reset or change.
 */
function requireToken(response: AuthResponse): string {
  if (!response?.token) throw new HttpError(500, 'Internal Server Error', 'NO_TOKEN');
  return response.token;
}

/** The calls of seed-spec §7, the chat and the account's self-service, each a typed function over the one HTTP client. */
export function createEndpoints(http: HttpClient) {
  return {
    publicKey: async () => (await http.get<{ key: string }>('/auth/public-key')).key,
    requestOtp: (email: string) => http.post<OtpResponse>('/auth/otp', { email }, { returnError: true }),
    signup: async (body: SignupRequest) =>
      requireToken(await http.post<AuthResponse>('/auth/signup', { ...body }, { returnError: true })),
    login: async (body: LoginRequest) =>
      requireToken(await http.post<AuthResponse>('/auth/login', { ...body }, { returnError: true })),
    verify: () => http.get<VerifyResponse>('/auth/verify'),
    /** Revokes this session's token on the server. */
    logout: () => http.post<SuccessResponse>('/auth/logout', undefined, { returnError: true }),
    /** Revokes every session of the user, this one included. */
    logoutEverywhere: () =>
      http.post<SuccessResponse>('/auth/logout-everywhere', undefined, { returnError: true }),
    /** Mails a reset code when the address has an account; the answer is the same either way. */
    forgotPassword: (email: string) =>
      http.post<OtpResponse>('/auth/password/forgot', { email }, { returnError: true }),
    resetPassword: async (body: ResetPasswordRequest) =>
      requireToken(await http.post<AuthResponse>('/auth/password/reset', { ...body }, { returnError: true })),
    changePassword: async (body: ChangePasswordRequest) =>
      requireToken(
        await http.post<AuthResponse>('/auth/password/change', { ...body }, { returnError: true }),
      ),
    organization: (subdomain: string) =>
      http.get<Organization>(`/api/v1/organization/${encodeURIComponent(subdomain)}`),
    bots: () => http.get<Bot[]>('/api/v1/bot'),
    me: () => http.get<User>('/api/v1/user/me'),
    updateMe: (changes: ProfileChangeRequest) => http.patch<User>('/api/v1/user/me', { ...changes }),
    deleteMe: (body: DeleteAccountRequest) =>
      http.delete<SuccessResponse>('/api/v1/user/me', undefined, { ...body }),
    exportMe: () => http.get<AccountExport>('/api/v1/user/me/export'),
    billing: (userId: string) => http.get<BillingInfo>(`/payment/billing-info/${encodeURIComponent(userId)}`),
    translate: (text: string, language: string) =>
      http.post<TranslateResponse>('/api/v1/translate', { text, language }, { returnError: true }),
    topics: () => http.get<TopicSummary[]>('/api/v1/topic'),
    topic: (id: string) => http.get<Topic>(`/api/v1/topic/${encodeURIComponent(id)}`),
    createTopic: (bot: string) => http.post<Topic>('/api/v1/topic', { bot }, { returnError: true }),
    renameTopic: (id: string, title: string) =>
      http.patch<TopicSummary>(`/api/v1/topic/${encodeURIComponent(id)}`, { title }),
    deleteTopic: (id: string) => http.delete<unknown>(`/api/v1/topic/${encodeURIComponent(id)}`),
    /** Stops the reply being written in the topic; it is kept as far as it got, marked stopped. */
    stopReply: (topicId: string) =>
      http.post<{ stopped: boolean }>(`/api/v1/topic/${encodeURIComponent(topicId)}/stop`, {}),
    notifications: () => http.get<Notification[]>('/api/v1/notification'),
    markNotificationRead: (id: string) =>
      http.patch<Notification>(`/api/v1/notification/${encodeURIComponent(id)}`, { read: true }),
    /** Sends a message and yields the reply's server-sent events as they arrive. */
    async *sendMessage(topicId: string, text: string, signal: AbortSignal): AsyncGenerator<StreamEvent> {
      // Only chats need the event-stream parser: loaded with the first message, not with the landing page.
      const [{ createParser }, stream] = await Promise.all([
        import('eventsource-parser'),
        http.stream(`/api/v1/topic/${encodeURIComponent(topicId)}/message`, { text }, signal),
      ]);
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

export type Endpoints = ReturnType<typeof createEndpoints>;
