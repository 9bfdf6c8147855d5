import { assign, emit, fromCallback, fromPromise, setup } from 'xstate';

/** complete, or still being written, or ended early: by the user, by a crash of its writer, or by an error. */
export type MessageStatus = 'complete' | 'streaming' | 'stopped' | 'interrupted' | 'failed';
export interface ChatMessage {
  _id: string;
  role: 'user' | 'bot';
  text: string;
  status: MessageStatus;
}
export interface TopicRecord {
  _id: string;
  title: string;
  bot: { _id: string; name: string };
  messages: ChatMessage[];
}
export interface ChatError {
  message: string;
  code: string;
}

/** What the reply stream tells the machine, in order: stored, tokens, then done or failed. */
export type ReplyEvent =
  | { type: 'STORED'; userMessageId: string }
  | { type: 'TOKEN'; text: string }
  | { type: 'DONE'; botMessageId: string; cost: number; balance: number }
  | { type: 'FAILED'; error: ChatError; botMessageId?: string };

export type TopicEvent = ReplyEvent | { type: 'SEND'; text: string } | { type: 'STOP' } | { type: 'RETRY' };

export interface TopicContext {
  botId: string | null;
  topicId: string | null;
  topic: TopicRecord | null;
  messages: ChatMessage[];
  /** The reply as streamed so far. */
  draft: string;
  /** The last text sent, for retry. */
  lastText: string | null;
  error: ChatError | null;
  /** The balance after the last charged reply. */
  balance: number | null;
}

export const insufficientBalanceCode = 'INSUFFICIENT_BALANCE';

const toChatError = (error: unknown): ChatError => ({
  message: error instanceof Error ? error.message : 'Something went wrong',
  code: (error as { code?: string })?.code ?? 'UNKNOWN',
});

export const topicMachine = setup({
  types: {
    context: {} as TopicContext,
    events: {} as TopicEvent,
    input: {} as { botId: string | null; topicId: string | null },
    emitted: {} as { type: 'navigate'; to: string; replace?: boolean } | { type: 'charged'; balance: number },
  },
  actors: {
    createTopic: fromPromise<TopicRecord, { botId: string }>(async () => {
      throw new Error('createTopic is provided by the app');
    }),
    loadTopic: fromPromise<TopicRecord, { topicId: string }>(async () => {
      throw new Error('loadTopic is provided by the app');
    }),
    /** Sends the text and streams the reply back as ReplyEvents; stopping it aborts the request. */
    streamReply: fromCallback<TopicEvent, { topicId: string; text: string }>(({ sendBack }) => {
      sendBack({
        type: 'FAILED',
        error: { message: 'streamReply is provided by the app', code: 'NOT_PROVIDED' },
      });
    }),
  },
  guards: {
    hasTopicId: ({ context }) => context.topicId !== null,
    hasBotId: ({ context }) => context.botId !== null,
    hasText: ({ event }) => event.type === 'SEND' && event.text.trim() !== '',
    isInsufficientBalance: ({ event }) =>
      event.type === 'FAILED' && event.error.code === insufficientBalanceCode,
  },
  actions: {
    assignTopic: assign((_, params: { topic: TopicRecord }) => ({
      topic: params.topic,
      topicId: params.topic._id,
      messages: params.topic.messages,
      error: null,
    })),
    navigateToTopic: emit(({ context }) => ({
      type: 'navigate' as const,
      to: `/topics/${context.topicId}`,
      replace: true,
    })),
    assignError: assign({ error: (_, params: { error: ChatError }) => params.error }),
    assignLoadError: assign({ error: (_, params: { error: unknown }) => toChatError(params.error) }),
    assignMissingBot: assign({ error: { message: 'Choose a bot to chat with.', code: 'NO_BOT' } }),
    addUserMessage: assign(({ context }, params: { text: string }) => ({
      lastText: params.text,
      draft: '',
      error: null,
      messages: [
        ...context.messages,
        {
          _id: `pending-${context.messages.length}`,
          role: 'user' as const,
          text: params.text,
          status: 'complete' as const,
        },
      ],
    })),
    prepareRetry: assign({ draft: '', error: null }),
    confirmUserMessage: assign({
      messages: ({ context }, params: { userMessageId: string }) =>
        context.messages.map((message, index) =>
          index === context.messages.length - 1 && message.role === 'user'
            ? { ...message, _id: params.userMessageId }
            : message,
        ),
    }),
    appendToken: assign({ draft: ({ context }, params: { text: string }) => context.draft + params.text }),
    finishReply: assign(({ context }, params: { botMessageId: string; balance: number }) => ({
      messages: [
        ...context.messages,
        { _id: params.botMessageId, role: 'bot' as const, text: context.draft, status: 'complete' as const },
      ],
      draft: '',
      balance: params.balance,
    })),
    keepPartialReply: assign(
      ({ context }, params: { botMessageId?: string; status: 'stopped' | 'failed' }) => ({
        messages: context.draft
          ? [
              ...context.messages,
              {
                _id: params.botMessageId ?? `stopped-${context.messages.length}`,
                role: 'bot' as const,
                text: context.draft,
                status: params.status,
              },
            ]
          : context.messages,
        draft: '',
      }),
    ),
    announceCharge: emit((_, params: { balance: number }) => ({
      type: 'charged' as const,
      balance: params.balance,
    })),
  },
}).createMachine({
  id: 'topic',
  description: 'One conversation with a bot: start it, send, stream the reply, stop, retry.',
  context: ({ input }) => ({
    botId: input.botId,
    topicId: input.topicId,
    topic: null,
    messages: [],
    draft: '',
    lastText: null,
    error: null,
    balance: null,
  }),
  initial: 'starting',
  states: {
    starting: {
      description: 'An existing topic is loaded; topics/new?bot=ID creates one.',
      always: [
        { guard: 'hasTopicId', target: 'loading' },
        { guard: 'hasBotId', target: 'creating' },
        { target: 'unavailable', actions: 'assignMissingBot' },
      ],
    },
    creating: {
      description: 'Creates the topic with the chosen bot, then moves to its address.',
      invoke: {
        id: 'createTopic',
        src: 'createTopic',
        input: ({ context }) => ({ botId: context.botId ?? '' }),
        onDone: {
          target: 'ready',
          actions: [
            { type: 'assignTopic', params: ({ event }) => ({ topic: event.output }) },
            'navigateToTopic',
          ],
        },
        onError: {
          target: 'unavailable',
          actions: { type: 'assignLoadError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    loading: {
      description: 'Loads the topic and its messages.',
      invoke: {
        id: 'loadTopic',
        src: 'loadTopic',
        input: ({ context }) => ({ topicId: context.topicId ?? '' }),
        onDone: {
          target: 'ready',
          actions: { type: 'assignTopic', params: ({ event }) => ({ topic: event.output }) },
        },
        onError: {
          target: 'unavailable',
          actions: { type: 'assignLoadError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    unavailable: {
      description: 'The topic could not be started or loaded; the user can retry.',
      on: { RETRY: 'starting' },
    },
    ready: {
      description: 'Waits for the next message.',
      on: {
        SEND: {
          guard: 'hasText',
          target: 'replying',
          actions: { type: 'addUserMessage', params: ({ event }) => ({ text: event.text }) },
        },
      },
    },
    replying: {
      description: 'The message is sent and the reply streams in; it can be stopped.',
      initial: 'waiting',
      invoke: {
        id: 'streamReply',
        src: 'streamReply',
        input: ({ context }) => ({ topicId: context.topicId ?? '', text: context.lastText ?? '' }),
      },
      on: {
        STORED: {
          actions: {
            type: 'confirmUserMessage',
            params: ({ event }) => ({ userMessageId: event.userMessageId }),
          },
        },
        TOKEN: {
          target: '.streaming',
          actions: { type: 'appendToken', params: ({ event }) => ({ text: event.text }) },
        },
        DONE: {
          target: 'ready',
          actions: [
            {
              type: 'finishReply',
              params: ({ event }) => ({ botMessageId: event.botMessageId, balance: event.balance }),
            },
            { type: 'announceCharge', params: ({ event }) => ({ balance: event.balance }) },
          ],
        },
        STOP: { target: 'ready', actions: { type: 'keepPartialReply', params: { status: 'stopped' } } },
        FAILED: [
          {
            guard: 'isInsufficientBalance',
            target: 'insufficientBalance',
            actions: { type: 'assignError', params: ({ event }) => ({ error: event.error }) },
          },
          {
            target: 'replyFailed',
            actions: [
              {
                type: 'keepPartialReply',
                params: ({ event }) => ({ botMessageId: event.botMessageId, status: 'failed' as const }),
              },
              { type: 'assignError', params: ({ event }) => ({ error: event.error }) },
            ],
          },
        ],
      },
      states: {
        waiting: { description: 'Sent; the first token has not arrived.' },
        streaming: { description: 'Tokens are arriving.' },
      },
    },
    replyFailed: {
      description: 'The reply failed; the message is kept and can be sent again.',
      on: {
        RETRY: { target: 'replying', actions: 'prepareRetry' },
        SEND: {
          guard: 'hasText',
          target: 'replying',
          actions: { type: 'addUserMessage', params: ({ event }) => ({ text: event.text }) },
        },
      },
    },
    insufficientBalance: {
      description: 'The balance cannot pay for a reply: nothing was generated.',
      on: { RETRY: { target: 'replying', actions: 'prepareRetry' } },
    },
  },
});
