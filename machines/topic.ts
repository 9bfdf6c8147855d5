import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { errorParams } from './errors';
import {
  branchOnScreen,
  isPending,
  keepingKeys,
  type MessageFile,
  messageById,
  newestLeafUnder,
  pendingMessage,
  showing,
  storedHead,
  streamingReply,
  type TopicRecord,
  withMessage,
} from './messageTree';
import {
  type ReplyContext,
  type ReplyControlEvent,
  type ReplyEvent,
  type ReplyRequest,
  replyActions,
  replyActors,
  replyDelays,
  replyGuards,
  replyStates,
  toChatError,
} from './reply';

export type TopicEvent =
  | ReplyEvent
  | ReplyControlEvent
  /** A message, with the files uploaded for it (at most 10); `webSearch`: "Search the web" for it. */
  | { type: 'SEND'; text: string; files?: MessageFile[]; webSearch?: boolean }
  /** Sends a new text in place of one of the user's messages: a new branch, the old one kept. */
  | { type: 'EDIT'; messageId: string; text: string }
  /** Asks for another reply in place of a reply: a new sibling of it (written by `model` when given). */
  | { type: 'REGENERATE'; messageId: string; model?: string }
  /** Asks the bot to go on with its reply that ended early (the last on screen), in the same message. */
  | { type: 'CONTINUE'; messageId: string }
  /** Shows the branch through another message that follows the same one. */
  | { type: 'SHOW_SIBLING'; messageId: string }
  | { type: 'RETRY' }
  /**
   * The address names a conversation (`topics/:id`) or a bot's new chat (`topics/new?bot=ID`, with
   * `&project=ID` when it starts in a project).
   */
  | ({ type: 'OPEN' } & ChatAddress);

/** What a chat screen opens: a conversation, or a bot's new chat (in a project, or none). */
export interface ChatAddress {
  topicId: string | null;
  botId: string | null;
  project?: string | null;
}

export interface TopicContext extends ReplyContext {
  botId: string | null;
  /** The project a new chat is created in. */
  project: string | null;
}

/** What the server says of a bot nobody can chat with: unknown here, switched off, for other groups, or retired. */
export const botUnavailableCodes = ['BOT_NOT_FOUND', 'BOT_INACTIVE', 'BOT_NOT_ALLOWED', 'BOT_RETIRED'];
/** How a reply that did not complete ended: such a reply can be continued. */
const endedEarly = ['stopped', 'interrupted', 'failed'];

const conversationOf = (input: ChatAddress): TopicContext => ({
  botId: input.botId,
  project: input.project ?? null,
  topicId: input.topicId,
  topic: null,
  messages: [],
  draft: '',
  request: null,
  error: null,
  reattempts: 0,
  returned: null,
  decision: null,
  decisionError: null,
});

/**
 * What sending a message asks of the server: its text, what it follows, its files' ids if any, and
 * whether it searches the web.
 */
const sendRequest = (
  text: string,
  parent: string | null,
  files: MessageFile[] = [],
  webSearch = false,
): ReplyRequest => ({
  kind: 'send',
  text,
  parent,
  ...(files.length ? { files: files.map((file) => file._id) } : {}),
  ...(webSearch ? { webSearch: true as const } : {}),
});

// The params of the topic's actions and guards, from the invoked actor's event a transition takes.
const storedTopic = ({ event }: { event: { output: TopicRecord } }) => ({ stored: event.output });

/**
 * Sending from a chat that waits for the user (`ready`, or after a failed reply): a message, an edit
 * (a new branch), or another reply in place of one.
 */
const sending = {
  SEND: { guard: 'hasText', target: '#replying', actions: 'addUserMessage' },
  EDIT: { guard: 'isEditable', target: '#replying', actions: 'addUserMessage' },
  REGENERATE: { guard: 'isReply', target: '#replying', actions: 'askAgain' },
} as const;

export const topicMachine = setup({
  types: {
    context: {} as TopicContext,
    events: {} as TopicEvent,
    input: {} as ChatAddress,
  },
  actors: {
    /** Settles once the bot is known to exist and be active; fails with a code of botUnavailableCodes if not. */
    checkBot: fromPromise<unknown, { botId: string }>(async () => {
      throw new Error('checkBot is provided by the app');
    }),
    createTopic: fromPromise<TopicRecord, { botId: string; project: string | null }>(async () => {
      throw new Error('createTopic is provided by the app');
    }),
    loadTopic: fromPromise<TopicRecord, { topicId: string }>(async () => {
      throw new Error('loadTopic is provided by the app');
    }),
    ...replyActors,
  },
  guards: {
    ...replyGuards,
    hasTopicId: ({ context }) => context.topicId !== null,
    hasBotId: ({ context }) => context.botId !== null,
    hasText: ({ event }) => event.type === 'SEND' && event.text.trim() !== '',
    /** Only the user's own messages can be edited, and not into nothing. */
    isEditable: ({ context, event }) => {
      assertEvent(event, 'EDIT');
      return event.text.trim() !== '' && messageById(context.topic, event.messageId)?.role === 'user';
    },
    isReply: ({ context, event }) => {
      assertEvent(event, ['REGENERATE', 'SHOW_SIBLING']);
      return messageById(context.topic, event.messageId) !== undefined && !isPending(event.messageId);
    },
    /** The last reply on screen ended early (stopped, interrupted, failed): it can go on. */
    isContinuable: ({ context, event }) => {
      assertEvent(event, 'CONTINUE');
      const last = context.messages.at(-1);
      return last?._id === event.messageId && last.role === 'bot' && endedEarly.includes(last.status);
    },
    /** The topic loaded has a reply the server is still writing. */
    isStreaming: (_, { stored }: { stored: TopicRecord }) => streamingReply(stored) !== undefined,
    isBotUnavailable: (_, { error }: { error: unknown }) =>
      botUnavailableCodes.includes(toChatError(error).code),
    /** The topic this chat just created keeps its chat when the address catches up with it. */
    isAnotherConversation: ({ context, event }) => {
      assertEvent(event, 'OPEN');
      return event.topicId !== null
        ? event.topicId !== context.topicId
        : event.botId !== context.botId ||
            (event.project ?? null) !== context.project ||
            context.topicId !== null;
    },
  },
  delays: replyDelays,
  actions: {
    ...replyActions<TopicContext, TopicEvent>(),
    /** Effects the app provides: the address of the topic once created (`context.topicId`)… */
    navigateToTopic: () => {
      throw new Error('navigateToTopic is provided by the app');
    },
    /** …and the branch on screen (`context.topic.head`), kept for the next visit. */
    saveHead: () => {
      throw new Error('saveHead is provided by the app');
    },
    assignConversation: assign(({ event }) => {
      assertEvent(event, 'OPEN');
      return conversationOf(event);
    }),
    /**
     * The topic as the server holds it; a reply still being written shows what is stored of it. A
     * message already on screen keeps its place there: read again (after Stop, say), it is not shown,
     * nor announced, as a new one.
     */
    assignTopic: assign(({ context }, { stored }: { stored: TopicRecord }) => {
      const topic = keepingKeys(stored, context.topic);
      return {
        topic,
        topicId: topic._id,
        messages: branchOnScreen(topic),
        draft: streamingReply(topic)?.text ?? '',
        error: null,
        reattempts: 0,
      };
    }),
    /** The topic created for the first message: that message stays on screen. */
    assignCreatedTopic: assign(({ context }, { stored }: { stored: TopicRecord }) => ({
      ...showing(stored, context.messages, context.messages.at(-1)?._id ?? null),
      topicId: stored._id,
      error: null,
    })),
    assignLoadError: assign((_, { error }: { error: unknown }) => ({ error: toChatError(error) })),
    assignMissingBot: assign({ error: { message: 'Choose a bot to chat with.', code: 'NO_BOT' } }),
    /** Before the topic exists, its first message is the only one on screen (a new one replaces it). */
    addFirstMessage: assign(({ context, event }) => {
      assertEvent(event, 'SEND');
      const message = pendingMessage(context.topic?.messages.length ?? 0, event.text, null, event.files);
      return {
        messages: [message],
        request: sendRequest(event.text, null, event.files, event.webSearch),
        draft: '',
        error: null,
        returned: null,
      };
    }),
    /** A message after the branch on screen (SEND), or in place of an edited one (EDIT). */
    addUserMessage: assign(({ context, event }) => {
      assertEvent(event, ['SEND', 'EDIT']);
      const topic = context.topic as TopicRecord;
      const parent =
        event.type === 'SEND'
          ? storedHead(context.messages)
          : (messageById(topic, event.messageId)?.parent ?? null);
      const files = event.type === 'SEND' ? event.files : undefined;
      const message = pendingMessage(topic.messages.length, event.text, parent, files);
      return {
        ...showing(topic, withMessage(topic.messages, message), message._id),
        request: sendRequest(event.text, parent, files, event.type === 'SEND' && event.webSearch),
        draft: '',
        error: null,
        returned: null,
      };
    }),
    /** Another reply to the message a reply answers: the branch ends at that message until it comes. */
    askAgain: assign(({ context, event }) => {
      assertEvent(event, 'REGENERATE');
      const topic = context.topic as TopicRecord;
      return {
        ...showing(topic, topic.messages, messageById(topic, event.messageId)?.parent ?? null),
        request: {
          kind: 'regenerate' as const,
          messageId: event.messageId,
          ...(event.model ? { model: event.model } : {}),
        },
        draft: '',
        error: null,
      };
    }),
    /** The reply goes on from its text: the words that come are added to it. */
    continueReply: assign(({ context, event }) => {
      assertEvent(event, 'CONTINUE');
      return {
        request: { kind: 'continue' as const, messageId: event.messageId },
        draft: messageById(context.topic, event.messageId)?.text ?? '',
        error: null,
      };
    }),
    /**
     * Retry asks again for the reply that failed (the branch ends at the message it answers until the
     * new one comes), or for a reply to the user's message that has none, or sends again what never
     * reached the server; a reply that failed to go on is continued again.
     */
    prepareRetry: assign(({ context }) => {
      const last = context.messages.at(-1);
      if (!last || isPending(last._id) || !context.topic) return { draft: '', error: null };
      if (context.request?.kind === 'continue' && context.request.messageId === last._id)
        return { draft: last.text, error: null };
      const topic = context.topic;
      return {
        ...showing(topic, topic.messages, last.role === 'bot' ? last.parent : last._id),
        request: { kind: 'regenerate' as const, messageId: last._id },
        draft: '',
        error: null,
      };
    }),
    showBranch: assign(({ context, event }) => {
      assertEvent(event, 'SHOW_SIBLING');
      const topic = context.topic as TopicRecord;
      return showing(topic, topic.messages, newestLeafUnder(topic.messages, event.messageId));
    }),
  },
}).createMachine({
  id: 'topic',
  description:
    "One conversation with a bot: the bot's empty chat until the first message, then send, edit, ask again, switch branches, and follow replies that go on while the user is away.",
  context: ({ input }) => conversationOf(input),
  initial: 'starting',
  on: {
    OPEN: {
      guard: 'isAnotherConversation',
      target: '.starting',
      actions: 'assignConversation',
    },
  },
  states: {
    starting: {
      id: 'starting',
      description: "An existing topic is loaded; topics/new?bot=ID shows the bot's empty chat.",
      always: [
        { guard: 'hasTopicId', target: 'loading' },
        { guard: 'hasBotId', target: 'checkingBot' },
        { target: 'botUnavailable', actions: 'assignMissingBot' },
      ],
    },
    checkingBot: {
      id: 'checkingBot',
      description: 'Makes sure the chosen bot exists and is active; nothing is created.',
      invoke: {
        id: 'checkBot',
        src: 'checkBot',
        input: ({ context }) => ({ botId: context.botId ?? '' }),
        onDone: 'draft',
        onError: [
          {
            guard: { type: 'isBotUnavailable', params: errorParams },
            target: 'botUnavailable',
            actions: { type: 'assignLoadError', params: errorParams },
          },
          { target: 'unavailable', actions: { type: 'assignLoadError', params: errorParams } },
        ],
      },
    },
    draft: {
      id: 'draft',
      description: "The bot's empty chat: no topic exists until the first message is sent.",
      on: { SEND: { guard: 'hasText', target: 'creating', actions: 'addFirstMessage' } },
    },
    creating: {
      id: 'creating',
      description: 'Creates the topic just before its first message, then moves to its address.',
      invoke: {
        id: 'createTopic',
        src: 'createTopic',
        input: ({ context }) => ({ botId: context.botId ?? '', project: context.project }),
        onDone: {
          target: '#replying',
          actions: [{ type: 'assignCreatedTopic', params: storedTopic }, 'navigateToTopic'],
        },
        onError: [
          {
            guard: { type: 'isBotUnavailable', params: errorParams },
            target: 'botUnavailable',
            actions: { type: 'assignLoadError', params: errorParams },
          },
          { target: 'creationFailed', actions: { type: 'assignLoadError', params: errorParams } },
        ],
      },
    },
    creationFailed: {
      id: 'creationFailed',
      description: 'The topic could not be created; the first message waits to be sent again.',
      on: {
        RETRY: 'creating',
        SEND: { guard: 'hasText', target: 'creating', actions: 'addFirstMessage' },
      },
    },
    loading: {
      id: 'loading',
      description: 'Loads the topic and the branch of messages on screen.',
      invoke: {
        id: 'loadTopic',
        src: 'loadTopic',
        input: ({ context }) => ({ topicId: context.topicId ?? '' }),
        onDone: [
          {
            guard: { type: 'isStreaming', params: storedTopic },
            target: '#attached',
            actions: { type: 'assignTopic', params: storedTopic },
          },
          { target: 'ready', actions: { type: 'assignTopic', params: storedTopic } },
        ],
        onError: { target: 'unavailable', actions: { type: 'assignLoadError', params: errorParams } },
      },
    },
    unavailable: {
      id: 'unavailable',
      description: 'The topic or the bot could not be loaded; the user can retry.',
      on: { RETRY: 'starting' },
    },
    botUnavailable: {
      id: 'botUnavailable',
      description: 'No bot, or one unknown or switched off: no retry can help, the way on is the catalogue.',
    },
    ready: {
      id: 'ready',
      description:
        'Waits for the next message, an edit, another reply, the rest of a reply that ended early, or another branch.',
      on: {
        ...sending,
        CONTINUE: { guard: 'isContinuable', target: '#replying', actions: 'continueReply' },
        SHOW_SIBLING: { guard: 'isReply', actions: ['showBranch', 'saveHead'] },
      },
    },
    ...replyStates,
    replyFailed: {
      id: 'replyFailed',
      description: 'The reply failed; it stays on screen with its error, and can be asked for again.',
      on: {
        RETRY: { target: '#replying', actions: 'prepareRetry' },
        ...sending,
      },
    },
    insufficientBalance: {
      id: 'insufficientBalance',
      description:
        'The balance, or the monthly budget of the member’s groups, cannot pay for a reply: nothing was generated.',
      on: { RETRY: { target: '#replying', actions: 'prepareRetry' } },
    },
  },
});
