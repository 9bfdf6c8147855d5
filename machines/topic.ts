import { assign, fromCallback, fromPromise, setup } from 'xstate';

/** complete, or still being written, or ended early: by the user, by a crash of its writer, or by an error. */
export type MessageStatus = 'complete' | 'streaming' | 'stopped' | 'interrupted' | 'failed';
export interface ChatMessage {
  _id: string;
  /** The message this one follows; null for the first. Messages form a tree of branches. */
  parent?: string | null;
  role: 'user' | 'bot';
  text: string;
  status: MessageStatus;
  /** When it was stored; unknown until the server confirms it. */
  createdAt?: string;
}
export interface TopicRecord {
  _id: string;
  title: string;
  bot: { _id: string; name: string };
  /** The newest message of the branch on screen. */
  head: string | null;
  messages: ChatMessage[];
}
export interface ChatError {
  message: string;
  code: string;
}

/** What the reply stream tells the machine, in order: stored, tokens, then done or failed. */
export type ReplyEvent =
  | { type: 'STORED'; userMessageId: string; createdAt: string }
  | { type: 'TOKEN'; text: string }
  | { type: 'DONE'; botMessageId: string; cost: number; balance: number; createdAt: string }
  | { type: 'FAILED'; error: ChatError; botMessageId?: string };

export type TopicEvent =
  | ReplyEvent
  | { type: 'SEND'; text: string }
  | { type: 'STOP' }
  | { type: 'RETRY' }
  /** The address names a conversation (`topics/:id`) or a bot's new chat (`topics/new?bot=ID`). */
  | { type: 'OPEN'; topicId: string | null; botId: string | null };

export interface TopicContext {
  botId: string | null;
  topicId: string | null;
  topic: TopicRecord | null;
  /** The branch on screen, oldest first. */
  messages: ChatMessage[];
  /** The reply as streamed so far. */
  draft: string;
  /** The last text sent, for retry. */
  lastText: string | null;
  error: ChatError | null;
}

export const insufficientBalanceCode = 'INSUFFICIENT_BALANCE';
/** What the server says of a bot nobody can chat with: unknown here, or switched off. */
export const botUnavailableCodes = ['BOT_NOT_FOUND', 'BOT_INACTIVE'];

/**
 * The branch on screen, oldest first: from the head up through the parents. A topic without a head
 * (nothing sent yet) shows every message it has.
 */
export function branchOnScreen(topic: TopicRecord): ChatMessage[] {
  if (!topic.head) return topic.messages;
  const byId = new Map(topic.messages.map((message) => [message._id, message]));
  const branch: ChatMessage[] = [];
  for (let message = byId.get(topic.head); message; message = byId.get(message.parent ?? '')) {
    branch.unshift(message);
  }
  return branch;
}

const toChatError = (error: unknown): ChatError => ({
  message: error instanceof Error ? error.message : 'Something went wrong',
  code: (error as { code?: string })?.code ?? 'UNKNOWN',
});

const conversationOf = (input: { botId: string | null; topicId: string | null }): TopicContext => ({
  botId: input.botId,
  topicId: input.topicId,
  topic: null,
  messages: [],
  draft: '',
  lastText: null,
  error: null,
});

const userMessage = (index: number, text: string): ChatMessage => ({
  _id: `pending-${index}`,
  role: 'user',
  text,
  status: 'complete',
});

export const topicMachine = setup({
  types: {
    context: {} as TopicContext,
    events: {} as TopicEvent,
    input: {} as { botId: string | null; topicId: string | null },
  },
  actors: {
    /** Settles once the bot is known to exist and be active; fails with a code of botUnavailableCodes if not. */
    checkBot: fromPromise<unknown, { botId: string }>(async () => {
      throw new Error('checkBot is provided by the app');
    }),
    createTopic: fromPromise<TopicRecord, { botId: string }>(async () => {
      throw new Error('createTopic is provided by the app');
    }),
    loadTopic: fromPromise<TopicRecord, { topicId: string }>(async () => {
      throw new Error('loadTopic is provided by the app');
    }),
    /** Sends the text and streams the reply back as ReplyEvents; stopping it stops the reply. */
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
    isBotUnavailable: (_, params: { error: unknown }) =>
      botUnavailableCodes.includes(toChatError(params.error).code),
    /** The topic this chat just created keeps its chat when the address catches up with it. */
    isAnotherConversation: ({ context, event }) =>
      event.type === 'OPEN' &&
      (event.topicId !== null
        ? event.topicId !== context.topicId
        : event.botId !== context.botId || context.topicId !== null),
  },
  actions: {
    /** Effects the app provides: the address of the topic once created… */
    navigateToTopic: (_, _params: { topicId: string }) => {},
    /** …the balance after a charged reply… */
    announceCharge: (_, _params: { balance: number }) => {},
    /** …and the conversation list, which shows what the server now holds. */
    announceConversationChange: () => {},
    assignConversation: assign((_, params: { botId: string | null; topicId: string | null }) =>
      conversationOf(params),
    ),
    assignTopic: assign((_, params: { topic: TopicRecord }) => ({
      topic: params.topic,
      topicId: params.topic._id,
      messages: branchOnScreen(params.topic),
      error: null,
    })),
    /** The topic created for the first message: that message stays on screen. */
    assignCreatedTopic: assign((_, params: { topic: TopicRecord }) => ({
      topic: params.topic,
      topicId: params.topic._id,
      error: null,
    })),
    assignError: assign({ error: (_, params: { error: ChatError }) => params.error }),
    assignLoadError: assign({ error: (_, params: { error: unknown }) => toChatError(params.error) }),
    assignMissingBot: assign({ error: { message: 'Choose a bot to chat with.', code: 'NO_BOT' } }),
    addUserMessage: assign(({ context }, params: { text: string }) => ({
      lastText: params.text,
      draft: '',
      error: null,
      messages: [...context.messages, userMessage(context.messages.length, params.text)],
    })),
    /** Before the topic exists, its only message is the one that could not start it: a new one takes its place. */
    replaceUserMessage: assign((_, params: { text: string }) => ({
      lastText: params.text,
      draft: '',
      error: null,
      messages: [userMessage(0, params.text)],
    })),
    prepareRetry: assign({ draft: '', error: null }),
    confirmUserMessage: assign({
      messages: ({ context }, params: { userMessageId: string; createdAt: string }) =>
        context.messages.map((message, index) =>
          index === context.messages.length - 1 && message.role === 'user'
            ? { ...message, _id: params.userMessageId, createdAt: params.createdAt }
            : message,
        ),
    }),
    appendToken: assign({ draft: ({ context }, params: { text: string }) => context.draft + params.text }),
    finishReply: assign(({ context }, params: { botMessageId: string; createdAt: string }) => ({
      messages: [
        ...context.messages,
        {
          _id: params.botMessageId,
          role: 'bot' as const,
          text: context.draft,
          status: 'complete' as const,
          createdAt: params.createdAt,
        },
      ],
      draft: '',
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
  },
}).createMachine({
  id: 'topic',
  description:
    "One conversation with a bot: the bot's empty chat until the first message, then send, stream, stop, retry.",
  context: ({ input }) => conversationOf(input),
  initial: 'starting',
  on: {
    OPEN: {
      guard: 'isAnotherConversation',
      target: '.starting',
      actions: {
        type: 'assignConversation',
        params: ({ event }) => ({ botId: event.botId, topicId: event.topicId }),
      },
    },
  },
  states: {
    starting: {
      description: "An existing topic is loaded; topics/new?bot=ID shows the bot's empty chat.",
      always: [
        { guard: 'hasTopicId', target: 'loading' },
        { guard: 'hasBotId', target: 'checkingBot' },
        { target: 'botUnavailable', actions: 'assignMissingBot' },
      ],
    },
    checkingBot: {
      description: 'Makes sure the chosen bot exists and is active; nothing is created.',
      invoke: {
        id: 'checkBot',
        src: 'checkBot',
        input: ({ context }) => ({ botId: context.botId ?? '' }),
        onDone: 'draft',
        onError: [
          {
            guard: { type: 'isBotUnavailable', params: ({ event }) => ({ error: event.error }) },
            target: 'botUnavailable',
            actions: { type: 'assignLoadError', params: ({ event }) => ({ error: event.error }) },
          },
          {
            target: 'unavailable',
            actions: { type: 'assignLoadError', params: ({ event }) => ({ error: event.error }) },
          },
        ],
      },
    },
    draft: {
      description: "The bot's empty chat: no topic exists until the first message is sent.",
      on: {
        SEND: {
          guard: 'hasText',
          target: 'creating',
          actions: { type: 'addUserMessage', params: ({ event }) => ({ text: event.text }) },
        },
      },
    },
    creating: {
      description: 'Creates the topic just before its first message, then moves to its address.',
      invoke: {
        id: 'createTopic',
        src: 'createTopic',
        input: ({ context }) => ({ botId: context.botId ?? '' }),
        onDone: {
          target: 'replying',
          actions: [
            { type: 'assignCreatedTopic', params: ({ event }) => ({ topic: event.output }) },
            { type: 'navigateToTopic', params: ({ event }) => ({ topicId: event.output._id }) },
          ],
        },
        onError: [
          {
            guard: { type: 'isBotUnavailable', params: ({ event }) => ({ error: event.error }) },
            target: 'botUnavailable',
            actions: { type: 'assignLoadError', params: ({ event }) => ({ error: event.error }) },
          },
          {
            target: 'creationFailed',
            actions: { type: 'assignLoadError', params: ({ event }) => ({ error: event.error }) },
          },
        ],
      },
    },
    creationFailed: {
      description: 'The topic could not be created; the first message waits to be sent again.',
      on: {
        RETRY: { target: 'creating', actions: 'prepareRetry' },
        SEND: {
          guard: 'hasText',
          target: 'creating',
          actions: { type: 'replaceUserMessage', params: ({ event }) => ({ text: event.text }) },
        },
      },
    },
    loading: {
      description: 'Loads the topic and the branch of messages on screen.',
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
      description: 'The topic or the bot list could not be loaded; the user can retry.',
      on: { RETRY: 'starting' },
    },
    botUnavailable: {
      description: 'No bot, or one unknown or switched off: no retry can help, the way on is the catalogue.',
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
          actions: [
            {
              type: 'confirmUserMessage',
              params: ({ event }) => ({ userMessageId: event.userMessageId, createdAt: event.createdAt }),
            },
            'announceConversationChange',
          ],
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
              params: ({ event }) => ({ botMessageId: event.botMessageId, createdAt: event.createdAt }),
            },
            { type: 'announceCharge', params: ({ event }) => ({ balance: event.balance }) },
            'announceConversationChange',
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
              'announceConversationChange',
            ],
          },
        ],
      },
      states: {
        waiting: { description: 'Sent; the bot is typing, the first token has not arrived.' },
        streaming: { description: 'Tokens are arriving.' },
      },
    },
    replyFailed: {
      description: 'The reply failed; it stays on screen with its error, and can be asked for again.',
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
