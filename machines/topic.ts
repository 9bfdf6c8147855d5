import { assertEvent, assign, type EventObject, fromCallback, fromPromise, setup } from 'xstate';

/** complete, or still being written, or ended early: by the user, by a crash of its writer, or by an error. */
export type MessageStatus = 'complete' | 'streaming' | 'stopped' | 'interrupted' | 'failed';

/** A file a user's message carries (as the server keeps it); `removed` once its owner deleted it. */
export interface MessageFile {
  _id: string;
  name: string;
  type: string;
  size: number;
  removed?: boolean;
}

export interface ChatMessage {
  _id: string;
  /** The message this one follows; null for the first. Messages form a tree of branches. */
  parent: string | null;
  role: 'user' | 'bot';
  text: string;
  status: MessageStatus;
  /** When it was stored; unknown until the server confirms it. */
  createdAt?: string;
  /** What a complete bot reply was charged. */
  cost?: number;
  /** The sources a bot reply was given, cited as `[n]` in its text. */
  citations?: Citation[];
  /** The id it had on screen before the server stored it: the screen keeps showing the same message. */
  key?: string;
  /** The files a user's message carries. */
  files?: MessageFile[];
  /** The tools a bot reply called on its way, in order. */
  steps?: ToolStep[];
}

/** Where a tool call stands: waiting for the user's Allow or Deny, at work, or ended. */
export type ToolStepStatus = 'awaiting_approval' | 'running' | 'done' | 'error' | 'denied';

/** One tool call of a reply: the tool, what the model asked of it, what came back, and how long it took. */
export interface ToolStep {
  callId: string;
  tool: string;
  /** The arguments the model gave, as parsed JSON (its text as it is when it sent something else). */
  arguments: unknown;
  /** The tool's text (the server keeps 20,000 characters of it at most). */
  result?: string;
  error?: string;
  status: ToolStepStatus;
  /** Time taken, in milliseconds; 0 while it waits or runs. */
  ms: number;
}

/** A passage a reply was given: its number in the reply (`[n]`), its file and page, and what it says. */
export interface Citation {
  n: number;
  fileId: string;
  name: string;
  page?: number;
  snippet: string;
}

export interface TopicRecord {
  _id: string;
  title: string;
  bot: { _id: string; name: string };
  /** The newest message of the branch on screen. */
  head: string | null;
  /** Every message of every branch. */
  messages: ChatMessage[];
}

/** Where a message sits among the messages that follow the same one: "‹ 2 / 3 ›". */
export interface SiblingPosition {
  index: number;
  count: number;
  previous: string | null;
  next: string | null;
}

/**
 * The branch on screen, oldest first: from the head up through the parents. A topic without a head
 * (nothing sent yet) shows every message it has.
 */
export function branchOnScreen(topic: Pick<TopicRecord, 'head' | 'messages'>): ChatMessage[] {
  if (!topic.head) return topic.messages;
  const byId = new Map(topic.messages.map((message) => [message._id, message]));
  const branch: ChatMessage[] = [];
  // A message seen twice would be a loop in malformed data: the branch stops there.
  const seen = new Set<string>();
  for (
    let message = byId.get(topic.head);
    message && !seen.has(message._id);
    message = byId.get(message.parent ?? '')
  ) {
    seen.add(message._id);
    branch.unshift(message);
  }
  return branch;
}

/** The messages that follow the same one as `message` (itself included), oldest first. */
export function siblingsOf(messages: ChatMessage[], message: ChatMessage): ChatMessage[] {
  return messages.filter((other) => other.parent === message.parent && other.role === message.role);
}

export function siblingPosition(messages: ChatMessage[], message: ChatMessage): SiblingPosition {
  const siblings = siblingsOf(messages, message);
  const index = siblings.findIndex((sibling) => sibling._id === message._id);
  return {
    index: index + 1,
    count: siblings.length,
    previous: siblings[index - 1]?._id ?? null,
    next: siblings[index + 1]?._id ?? null,
  };
}

/** The end of the newest branch through a message: what switching to that message shows. */
export function newestLeafUnder(messages: ChatMessage[], messageId: string): string {
  const seen = new Set<string>();
  let leaf = messageId;
  for (;;) {
    seen.add(leaf);
    const children = messages.filter((message) => message.parent === leaf && !seen.has(message._id));
    if (!children.length) return leaf;
    leaf = children[children.length - 1]._id;
  }
}

/** The messages with `message` added, or put in place of the one with its id. */
export function withMessage(messages: ChatMessage[], message: ChatMessage): ChatMessage[] {
  const index = messages.findIndex((other) => other._id === message._id);
  if (index < 0) return [...messages, message];
  return messages.map((other, at) => (at === index ? { ...other, ...message } : other));
}

/** The reply the server is writing in a topic, if any. */
export function streamingReply(topic: Pick<TopicRecord, 'messages'>): ChatMessage | undefined {
  return topic.messages.find((message) => message.status === 'streaming');
}

export interface ChatError {
  message: string;
  code: string;
}

/**
 * What a reply answers: a message sent (after `parent`, or the first with null), a reply asked for
 * again, or a reply that ended early going on in the same message.
 */
export type ReplyRequest =
  | { kind: 'send'; text: string; parent: string | null; files?: string[] }
  | { kind: 'regenerate'; messageId: string }
  | { kind: 'continue'; messageId: string };

/** What a reply stream tells the machine: stored, tokens, then done or failed, unless the connection is lost. */
export type ReplyEvent =
  | { type: 'STORED'; userMessageId: string; botMessageId: string; createdAt: string }
  /** `end`: the length of the reply's text up to and including this token, when the server says it. */
  | { type: 'TOKEN'; text: string; end?: number }
  | {
      type: 'DONE';
      botMessageId: string;
      cost: number;
      balance: number;
      createdAt: string;
      citations?: Citation[];
      /** The reply's tool steps, when it called any. */
      steps?: ToolStep[];
    }
  /** A tool call of the reply was announced (running, or waiting for approval) or ended. */
  | { type: 'STEP'; botMessageId: string; step: ToolStep }
  | { type: 'FAILED'; error: ChatError; botMessageId?: string }
  /** The connection dropped after the server took the message: the reply goes on being written there. */
  | { type: 'DISCONNECTED' }
  /** Nothing is being written in the topic any more: the reply ended while nobody followed it. */
  | { type: 'NOT_STREAMING' };

export type TopicEvent =
  | ReplyEvent
  /** A message, with the files uploaded for it (at most 10). */
  | { type: 'SEND'; text: string; files?: MessageFile[] }
  /** Sends a new text in place of one of the user's messages: a new branch, the old one kept. */
  | { type: 'EDIT'; messageId: string; text: string }
  /** Asks for another reply in place of a reply: a new sibling of it. */
  | { type: 'REGENERATE'; messageId: string }
  /** Asks the bot to go on with its reply that ended early (the last on screen), in the same message. */
  | { type: 'CONTINUE'; messageId: string }
  /** Shows the branch through another message that follows the same one. */
  | { type: 'SHOW_SIBLING'; messageId: string }
  | { type: 'STOP' }
  | { type: 'RETRY' }
  /** The user's Allow of an "ask first" tool call: the only way such a call runs. */
  | { type: 'APPROVE_TOOL'; callId: string }
  /** The user's Deny of an "ask first" tool call. */
  | { type: 'DENY_TOOL'; callId: string }
  /** The network is back. */
  | { type: 'ONLINE' }
  /** The address names a conversation (`topics/:id`) or a bot's new chat (`topics/new?bot=ID`). */
  | { type: 'OPEN'; topicId: string | null; botId: string | null };

export interface TopicContext {
  botId: string | null;
  topicId: string | null;
  topic: TopicRecord | null;
  /** The branch on screen, oldest first. */
  messages: ChatMessage[];
  /** The reply as written so far. */
  draft: string;
  /** What the reply being written (or the last one) answers, for Retry. */
  request: ReplyRequest | null;
  error: ChatError | null;
  /** Attempts to follow the reply again since the connection was lost. */
  reattempts: number;
  /** A message the server refused before storing anything: back to the composer, text and files. */
  returned: { text: string; files: MessageFile[] } | null;
  /** The user's answer to a tool call waiting for approval, on its way to the server. */
  decision: ToolDecision | null;
  /** Why the last answer did not reach the server: shown with Allow and Deny to try again. */
  decisionError: ChatError | null;
}

/** Allow (`approve`) or Deny of one tool call. */
export interface ToolDecision {
  callId: string;
  approve: boolean;
}

export const insufficientBalanceCode = 'INSUFFICIENT_BALANCE';
/** The member's spend this month reached the budget of their groups: no reply until the next month. */
export const budgetReachedCode = 'BUDGET_REACHED';
/** What the server says of a bot nobody can chat with: unknown here, switched off, or for other groups. */
export const botUnavailableCodes = ['BOT_NOT_FOUND', 'BOT_INACTIVE', 'BOT_NOT_ALLOWED'];
/** The ending of a reply someone stopped: not a failure. */
export const stoppedCode = 'STOPPED';
/** What the server refuses in a message before storing anything: the message goes back to the composer. */
export const refusedMessageCodes = ['VISION_UNSUPPORTED'];
const interruptedCode = 'INTERRUPTED';
/** How a reply that did not complete ended: such a reply can be continued. */
const endedEarly: MessageStatus[] = ['stopped', 'interrupted', 'failed'];

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
  request: null,
  error: null,
  reattempts: 0,
  returned: null,
  decision: null,
  decisionError: null,
});

/** The topic with its messages changed, and the branch on screen that follows from it. */
const showing = (topic: TopicRecord, messages: ChatMessage[], head: string | null) => {
  const changed = { ...topic, messages, head };
  return { topic: changed, messages: branchOnScreen(changed) };
};

const isPending = (id: string) => id.startsWith('pending-');

/** The newest message on screen the server has stored, which a new message follows. */
const storedHead = (context: TopicContext) => {
  const last = context.messages.at(-1);
  return last && !isPending(last._id) ? last._id : null;
};

/** A user's message waiting for the server to store it. */
const pendingMessage = (
  context: TopicContext,
  text: string,
  parent: string | null,
  files: MessageFile[] = [],
): ChatMessage => ({
  _id: `pending-${context.topic?.messages.length ?? 0}`,
  key: `pending-${context.topic?.messages.length ?? 0}`,
  parent,
  role: 'user',
  text,
  status: 'complete',
  ...(files.length ? { files } : {}),
});

/** What sending a message asks of the server: its text, what it follows, and its files' ids if any. */
const sendRequest = (text: string, parent: string | null, files: MessageFile[] = []): ReplyRequest => ({
  kind: 'send',
  text,
  parent,
  ...(files.length ? { files: files.map((file) => file._id) } : {}),
});

/** The output of the invoked actor whose done event this is. */
const outputOf = <T>(event: EventObject) => (event as EventObject & { output: T }).output;
/** The error of the invoked actor whose error event this is. */
const errorOf = (event: EventObject) => ('error' in event ? event.error : undefined);

const messageIn = (context: TopicContext, id: string) =>
  context.topic?.messages.find((message) => message._id === id);

/** The steps with `step` added, or put in place of the one with its call id. */
export function withStep(steps: ToolStep[] = [], step: ToolStep): ToolStep[] {
  const index = steps.findIndex((other) => other.callId === step.callId);
  if (index < 0) return [...steps, step];
  return steps.map((other, at) => (at === index ? step : other));
}

/** The step an event brings: a STEP's, or the server's answer to the user's Allow or Deny. */
const stepOf = (event: EventObject): { botMessageId?: string; step: ToolStep } | undefined => {
  if (event.type === 'STEP') return event as TopicEvent & { type: 'STEP' };
  if (event.type === 'xstate.done.actor.decideToolCall') return { step: outputOf<ToolStep>(event) };
  return undefined;
};

/** The reply a step belongs to: the one it names, or else the one being written. */
const replyOfStep = (context: TopicContext, botMessageId?: string) =>
  (botMessageId ? messageIn(context, botMessageId) : undefined) ??
  (context.topic ? streamingReply(context.topic) : undefined);

/** The steps of the reply being written, with the one the event brings. */
const stepsAfter = (context: TopicContext, event: EventObject): ToolStep[] => {
  const brought = stepOf(event);
  const reply = replyOfStep(context, brought?.botMessageId);
  const steps = reply?.steps ?? [];
  return brought && reply ? withStep(steps, brought.step) : steps;
};

/** Allow or Deny of a call that waits for the user: the answer goes to the server. */
const decide = { guard: 'isAwaitedCall', target: 'deciding', actions: 'assignDecision' } as const;

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
    /** Sends the request and streams the reply back as ReplyEvents; leaving only stops listening. */
    streamReply: fromCallback<TopicEvent, { topicId: string; request: ReplyRequest }>(() => {
      throw new Error('streamReply is provided by the app');
    }),
    /** Follows the reply being written in the topic, from `offset` characters on, as ReplyEvents. */
    followReply: fromCallback<TopicEvent, { topicId: string; offset: number }>(() => {
      throw new Error('followReply is provided by the app');
    }),
    /**
     * Stops the reply on the server, which keeps it as far as it got; answers the topic as stored.
     * `started`: the server confirmed the reply; if not, it may still be on its way and be stopped once it starts.
     */
    stopReply: fromPromise<TopicRecord, { topicId: string; started: boolean }>(async () => {
      throw new Error('stopReply is provided by the app');
    }),
    /**
     * Sends the user's Allow (`approve`) or Deny of a tool call waiting for approval; answers the step
     * with its new status.
     */
    decideToolCall: fromPromise<ToolStep, ToolDecision & { topicId: string }>(async () => {
      throw new Error('decideToolCall is provided by the app');
    }),
    /** Sends ONLINE when the network returns. */
    watchNetwork: fromCallback<TopicEvent>(() => {
      throw new Error('watchNetwork is provided by the app');
    }),
  },
  guards: {
    hasTopicId: ({ context }) => context.topicId !== null,
    hasBotId: ({ context }) => context.botId !== null,
    hasText: ({ event }) => event.type === 'SEND' && event.text.trim() !== '',
    /** Only the user's own messages can be edited, and not into nothing. */
    isEditable: ({ context, event }) => {
      assertEvent(event, 'EDIT');
      return event.text.trim() !== '' && messageIn(context, event.messageId)?.role === 'user';
    },
    isReply: ({ context, event }) => {
      assertEvent(event, ['REGENERATE', 'SHOW_SIBLING']);
      return messageIn(context, event.messageId) !== undefined && !isPending(event.messageId);
    },
    /** The last reply on screen ended early (stopped, interrupted, failed): it can go on. */
    isContinuable: ({ context, event }) => {
      assertEvent(event, 'CONTINUE');
      const last = context.messages.at(-1);
      return last?._id === event.messageId && last.role === 'bot' && endedEarly.includes(last.status);
    },
    /** The topic loaded has a reply the server is still writing. */
    isStreaming: ({ event }) => streamingReply(outputOf<TopicRecord>(event)) !== undefined,
    /** The server confirms a reply once: the first STORED of it. */
    awaitsStorage: ({ context }) => !context.topic || streamingReply(context.topic) === undefined,
    /** The reply cannot be paid: the balance is short, or the monthly budget is reached. */
    isInsufficientBalance: ({ event }) =>
      event.type === 'FAILED' &&
      (event.error.code === insufficientBalanceCode || event.error.code === budgetReachedCode),
    isStopped: ({ event }) => event.type === 'FAILED' && event.error.code === stoppedCode,
    /** The server refused a message it has not stored (only a message on its way can be). */
    isRefusedMessage: ({ context, event }) =>
      event.type === 'FAILED' &&
      refusedMessageCodes.includes(event.error.code) &&
      context.messages.some((message) => isPending(message._id)),
    isBotUnavailable: ({ event }) => botUnavailableCodes.includes(toChatError(errorOf(event)).code),
    /** A tool call of the reply waits for the user's Allow or Deny (counting the step the event brings). */
    awaitsApproval: ({ context, event }) =>
      stepsAfter(context, event).some((step) => step.status === 'awaiting_approval'),
    /** A tool the reply called is at work (counting the step the event brings). */
    runsTool: ({ context, event }) => stepsAfter(context, event).some((step) => step.status === 'running'),
    /** The user answers a call that waits for them: nothing else (no text, no tool's result) approves one. */
    isAwaitedCall: ({ context, event }) => {
      assertEvent(event, ['APPROVE_TOOL', 'DENY_TOOL']);
      return (
        context.topic !== null &&
        stepsAfter(context, event).some(
          (step) => step.callId === event.callId && step.status === 'awaiting_approval',
        )
      );
    },
    /** The topic this chat just created keeps its chat when the address catches up with it. */
    isAnotherConversation: ({ context, event }) => {
      assertEvent(event, 'OPEN');
      return event.topicId !== null
        ? event.topicId !== context.topicId
        : event.botId !== context.botId || context.topicId !== null;
    },
  },
  delays: {
    /** Tries again after 1, 2, 4… seconds, at most every 15. */
    reattachDelay: ({ context }) => Math.min(15_000, 1000 * 2 ** context.reattempts),
  },
  actions: {
    /** Effects the app provides: the address of the topic once created (`context.topicId`)… */
    navigateToTopic: () => {
      throw new Error('navigateToTopic is provided by the app');
    },
    /** …the balance after a charged reply (the DONE event's `balance`)… */
    announceCharge: () => {
      throw new Error('announceCharge is provided by the app');
    },
    /** …the conversation list, which shows what the server now holds… */
    announceConversationChange: () => {
      throw new Error('announceConversationChange is provided by the app');
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
     * message already on screen keeps its place there (its `key`): read again (after Stop, say), it
     * is not shown, nor announced, as a new one.
     */
    assignTopic: assign(({ context, event }) => {
      const stored = outputOf<TopicRecord>(event);
      const keys = new Map(
        (context.topic?.messages ?? []).flatMap((message) =>
          message.key ? [[message._id, message.key]] : [],
        ),
      );
      const topic = {
        ...stored,
        messages: stored.messages.map((message) => {
          const key = keys.get(message._id);
          return key ? { ...message, key } : message;
        }),
      };
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
    assignCreatedTopic: assign(({ context, event }) => {
      const topic = outputOf<TopicRecord>(event);
      return {
        ...showing(topic, context.messages, context.messages.at(-1)?._id ?? null),
        topicId: topic._id,
        error: null,
      };
    }),
    assignError: assign({
      error: ({ event }) => {
        assertEvent(event, 'FAILED');
        return event.error;
      },
    }),
    assignLoadError: assign({ error: ({ event }) => toChatError(errorOf(event)) }),
    assignMissingBot: assign({ error: { message: 'Choose a bot to chat with.', code: 'NO_BOT' } }),
    /** Before the topic exists, its first message is the only one on screen (a new one replaces it). */
    addFirstMessage: assign(({ context, event }) => {
      assertEvent(event, 'SEND');
      const message = pendingMessage(context, event.text, null, event.files);
      return {
        messages: [message],
        request: sendRequest(event.text, null, event.files),
        draft: '',
        error: null,
        returned: null,
      };
    }),
    /** A message after the branch on screen (SEND), or in place of an edited one (EDIT). */
    addUserMessage: assign(({ context, event }) => {
      assertEvent(event, ['SEND', 'EDIT']);
      const parent =
        event.type === 'SEND' ? storedHead(context) : (messageIn(context, event.messageId)?.parent ?? null);
      const files = event.type === 'SEND' ? event.files : undefined;
      const message = pendingMessage(context, event.text, parent, files);
      const topic = context.topic as TopicRecord;
      return {
        ...showing(topic, withMessage(topic.messages, message), message._id),
        request: sendRequest(event.text, parent, files),
        draft: '',
        error: null,
        returned: null,
      };
    }),
    /** Another reply to the message a reply answers: the branch ends at that message until it comes. */
    askAgain: assign(({ context, event }) => {
      assertEvent(event, 'REGENERATE');
      const topic = context.topic as TopicRecord;
      const reply = messageIn(context, event.messageId);
      return {
        ...showing(topic, topic.messages, reply?.parent ?? null),
        request: { kind: 'regenerate' as const, messageId: event.messageId },
        draft: '',
        error: null,
      };
    }),
    /** The reply goes on from its text: the words that come are added to it. */
    continueReply: assign(({ context, event }) => {
      assertEvent(event, 'CONTINUE');
      return {
        request: { kind: 'continue' as const, messageId: event.messageId },
        draft: messageIn(context, event.messageId)?.text ?? '',
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
    /**
     * The server stored the user's message (or took the one answered again) and started the reply: a
     * new one, or the one that goes on.
     */
    confirmUserMessage: assign(({ context, event }) => {
      assertEvent(event, 'STORED');
      const topic = context.topic as TopicRecord;
      const pending = context.messages.find((message) => isPending(message._id));
      const messages = topic.messages.map((message) =>
        message === pending ? { ...message, _id: event.userMessageId, createdAt: event.createdAt } : message,
      );
      const continued = messageIn(context, event.botMessageId);
      const reply: ChatMessage = continued
        ? { ...continued, status: 'streaming' }
        : {
            _id: event.botMessageId,
            parent: event.userMessageId,
            role: 'bot',
            text: '',
            status: 'streaming',
            createdAt: event.createdAt,
          };
      return showing(topic, withMessage(messages, reply), reply._id);
    }),
    appendToken: assign({
      draft: ({ context, event }) => {
        assertEvent(event, 'TOKEN');
        return event.end === undefined
          ? context.draft + event.text
          : context.draft.slice(0, Math.max(0, event.end - event.text.length)) + event.text;
      },
      reattempts: 0,
    }),
    finishReply: assign(({ context, event }) => {
      assertEvent(event, 'DONE');
      const topic = context.topic as TopicRecord;
      const known = messageIn(context, event.botMessageId);
      const steps = event.steps ?? known?.steps;
      const reply: ChatMessage = {
        _id: event.botMessageId,
        parent: known?.parent ?? storedHead(context),
        role: 'bot',
        text: context.draft,
        status: 'complete',
        cost: event.cost,
        createdAt: known?.createdAt ?? event.createdAt,
        ...(event.citations?.length ? { citations: event.citations } : {}),
        ...(steps?.length ? { steps } : {}),
      };
      return { ...showing(topic, withMessage(topic.messages, reply), reply._id), draft: '' };
    }),
    /**
     * A reply that ended early keeps what was written of it (and its tool steps), marked with how it ended: stopped, or as
     * the FAILED event's code says.
     */
    keepPartialReply: assign(({ context, event }, params: { status: 'stopped' } | undefined) => {
      const topic = context.topic as TopicRecord;
      const failure = event.type === 'FAILED' ? event : undefined;
      const botMessageId = failure?.botMessageId ?? streamingReply(topic)?._id;
      const known = botMessageId ? messageIn(context, botMessageId) : undefined;
      if (!botMessageId || !known) return { draft: '' };
      const status =
        params?.status ??
        (failure?.error.code === interruptedCode ? ('interrupted' as const) : ('failed' as const));
      const reply = { ...known, text: context.draft, status };
      // Nothing written and no tool called: the empty reply leaves the screen, the message it answered stays.
      const kept = context.draft !== '' || Boolean(known.steps?.length);
      const messages = kept
        ? withMessage(topic.messages, reply)
        : topic.messages.filter((message) => message._id !== botMessageId);
      return { ...showing(topic, messages, kept ? reply._id : known.parent), draft: '' };
    }),
    /** A tool step of the reply, new or changed: announced, ended, or answered by the user. */
    assignStep: assign(({ context, event }) => {
      const brought = stepOf(event);
      const reply = replyOfStep(context, brought?.botMessageId);
      if (!brought || !reply || !context.topic) return {};
      const changed = { ...reply, steps: withStep(reply.steps, brought.step) };
      return showing(context.topic, withMessage(context.topic.messages, changed), context.topic.head);
    }),
    assignDecision: assign(({ event }) => {
      assertEvent(event, ['APPROVE_TOOL', 'DENY_TOOL']);
      return {
        decision: { callId: event.callId, approve: event.type === 'APPROVE_TOOL' },
        decisionError: null,
      };
    }),
    assignDecisionError: assign({ decisionError: ({ event }) => toChatError(errorOf(event)) }),
    countReattempt: assign({ reattempts: ({ context }) => context.reattempts + 1 }),
    /**
     * The server refused the message before storing anything (an image for a bot that cannot see):
     * it leaves the conversation and goes back to the composer with its files, the reason shown.
     */
    returnMessage: assign(({ context, event }) => {
      assertEvent(event, 'FAILED');
      const pending = context.messages.find((message) => isPending(message._id));
      const topic = context.topic as TopicRecord;
      const messages = topic.messages.filter((message) => message !== pending);
      return {
        ...showing(topic, messages, pending ? pending.parent : topic.head),
        draft: '',
        error: event.error,
        returned: { text: pending?.text ?? '', files: pending?.files ?? [] },
      };
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
            guard: 'isBotUnavailable',
            target: 'botUnavailable',
            actions: 'assignLoadError',
          },
          {
            target: 'unavailable',
            actions: 'assignLoadError',
          },
        ],
      },
    },
    draft: {
      id: 'draft',
      description: "The bot's empty chat: no topic exists until the first message is sent.",
      on: {
        SEND: {
          guard: 'hasText',
          target: 'creating',
          actions: 'addFirstMessage',
        },
      },
    },
    creating: {
      id: 'creating',
      description: 'Creates the topic just before its first message, then moves to its address.',
      invoke: {
        id: 'createTopic',
        src: 'createTopic',
        input: ({ context }) => ({ botId: context.botId ?? '' }),
        onDone: {
          target: '#replying',
          actions: ['assignCreatedTopic', 'navigateToTopic'],
        },
        onError: [
          {
            guard: 'isBotUnavailable',
            target: 'botUnavailable',
            actions: 'assignLoadError',
          },
          {
            target: 'creationFailed',
            actions: 'assignLoadError',
          },
        ],
      },
    },
    creationFailed: {
      id: 'creationFailed',
      description: 'The topic could not be created; the first message waits to be sent again.',
      on: {
        RETRY: 'creating',
        SEND: {
          guard: 'hasText',
          target: 'creating',
          actions: 'addFirstMessage',
        },
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
            guard: 'isStreaming',
            target: '#attached',
            actions: 'assignTopic',
          },
          {
            target: 'ready',
            actions: 'assignTopic',
          },
        ],
        onError: {
          target: 'unavailable',
          actions: 'assignLoadError',
        },
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
        SEND: {
          guard: 'hasText',
          target: '#replying',
          actions: 'addUserMessage',
        },
        EDIT: {
          guard: 'isEditable',
          target: '#replying',
          actions: 'addUserMessage',
        },
        REGENERATE: {
          guard: 'isReply',
          target: '#replying',
          actions: 'askAgain',
        },
        CONTINUE: {
          guard: 'isContinuable',
          target: '#replying',
          actions: 'continueReply',
        },
        SHOW_SIBLING: {
          guard: 'isReply',
          actions: ['showBranch', 'saveHead'],
        },
      },
    },
    live: {
      id: 'live',
      description:
        'A reply is being written on the server: it streams in, can be stopped, and goes on when the user leaves.',
      type: 'parallel',
      on: {
        DONE: {
          target: '#ready',
          actions: ['finishReply', 'announceCharge', 'announceConversationChange'],
        },
        STOP: '#stopping',
        FAILED: [
          {
            guard: 'isRefusedMessage',
            target: '#ready',
            actions: 'returnMessage',
          },
          {
            guard: 'isInsufficientBalance',
            target: '#insufficientBalance',
            actions: 'assignError',
          },
          {
            guard: 'isStopped',
            target: '#ready',
            actions: [
              { type: 'keepPartialReply', params: { status: 'stopped' } },
              'announceConversationChange',
            ],
          },
          {
            target: '#replyFailed',
            actions: ['keepPartialReply', 'assignError', 'announceConversationChange'],
          },
        ],
      },
      states: {
        stream: {
          id: 'stream',
          description:
            'How the reply reaches the screen: sent and streaming in, followed, or lost until the network returns.',
          initial: 'replying',
          states: {
            replying: {
              id: 'replying',
              description:
                'The message is sent and the reply streams in; it can be stopped, and survives leaving.',
              initial: 'waiting',
              invoke: {
                id: 'streamReply',
                src: 'streamReply',
                input: ({ context }) => ({
                  topicId: context.topicId ?? '',
                  request: context.request ?? { kind: 'send', text: '', parent: null },
                }),
              },
              on: {
                STORED: {
                  guard: 'awaitsStorage',
                  actions: ['confirmUserMessage', 'announceConversationChange'],
                },
                TOKEN: {
                  target: '.streaming',
                  actions: 'appendToken',
                },
                DISCONNECTED: 'detached',
              },
              states: {
                waiting: {
                  id: 'waiting',
                  description: 'Sent; the bot is typing, the first token has not arrived.',
                },
                streaming: { id: 'streaming', description: 'Tokens are arriving.' },
              },
            },
            attached: {
              id: 'attached',
              description:
                'Follows a reply the server goes on writing: after opening the topic, or once the network is back.',
              initial: 'attaching',
              invoke: {
                id: 'followReply',
                src: 'followReply',
                input: ({ context }) => ({ topicId: context.topicId ?? '', offset: context.draft.length }),
              },
              on: {
                TOKEN: {
                  target: '.following',
                  actions: 'appendToken',
                },
                NOT_STREAMING: '#loading',
                DISCONNECTED: 'detached',
              },
              states: {
                attaching: {
                  id: 'attaching',
                  description:
                    'Asks for the reply being written: the text after what is on screen, then each token.',
                },
                reattaching: {
                  id: 'reattaching',
                  description:
                    'Connected again after the connection (or a Stop) was lost; asks for what it missed.',
                },
                following: { id: 'following', description: 'Tokens of the reply are arriving.' },
              },
            },
            detached: {
              id: 'detached',
              description:
                'The connection was lost while the server writes the reply; follows it again when the network returns.',
              entry: 'countReattempt',
              invoke: { id: 'watchNetwork', src: 'watchNetwork' },
              after: { reattachDelay: '#reattaching' },
              on: { ONLINE: '#reattaching' },
            },
          },
        },
        tool: {
          id: 'tool',
          description:
            "The reply's tool calls: none at work, one running, or one waiting for the user's Allow or Deny.",
          initial: 'noTool',
          on: { STEP: { target: '.noTool', actions: 'assignStep' } },
          states: {
            noTool: {
              id: 'noTool',
              description:
                "No tool is at work: the bot writes, or thinks; the reply's steps say where to go.",
              always: [
                { guard: 'awaitsApproval', target: 'awaitingApproval' },
                { guard: 'runsTool', target: 'runningTool' },
              ],
            },
            runningTool: {
              id: 'runningTool',
              description: 'A tool the bot called is at work; its step shows it running until it ends.',
            },
            awaitingApproval: {
              id: 'awaitingApproval',
              description:
                'An "ask first" tool waits for the user: the call shows with Allow and Deny; only their click answers it.',
              initial: 'choosing',
              on: {
                STEP: [
                  { guard: 'awaitsApproval', actions: 'assignStep' },
                  { target: '#noTool', actions: 'assignStep' },
                ],
              },
              states: {
                choosing: {
                  id: 'choosing',
                  description: 'The call waits for Allow or Deny.',
                  on: { APPROVE_TOOL: decide, DENY_TOOL: decide },
                },
                deciding: {
                  id: 'deciding',
                  description: "The user's answer is on its way to the server.",
                  invoke: {
                    id: 'decideToolCall',
                    src: 'decideToolCall',
                    input: ({ context }) => ({
                      topicId: context.topicId ?? '',
                      ...(context.decision ?? { callId: '', approve: false }),
                    }),
                    onDone: { target: '#noTool', actions: 'assignStep' },
                    onError: { target: 'decisionFailed', actions: 'assignDecisionError' },
                  },
                },
                decisionFailed: {
                  id: 'decisionFailed',
                  description:
                    'The answer did not reach the server: the reason shows, and Allow or Deny try again.',
                  on: { APPROVE_TOOL: decide, DENY_TOOL: decide },
                },
              },
            },
          },
        },
      },
    },
    stopping: {
      id: 'stopping',
      description:
        'Stops the reply on the server and shows it as kept there; unconfirmed, it follows the reply again.',
      invoke: {
        id: 'stopReply',
        src: 'stopReply',
        input: ({ context }) => ({
          topicId: context.topicId ?? '',
          started: context.topic !== null && streamingReply(context.topic) !== undefined,
        }),
        onDone: {
          target: 'ready',
          actions: ['assignTopic', 'announceConversationChange'],
        },
        // Lost on the network, the stop may never have reached the server: it may still be writing.
        onError: {
          target: '#reattaching',
          description:
            'The stop is unconfirmed: the reply is followed again, or read as stored if nothing is written any more.',
        },
      },
    },
    replyFailed: {
      id: 'replyFailed',
      description: 'The reply failed; it stays on screen with its error, and can be asked for again.',
      on: {
        RETRY: { target: '#replying', actions: 'prepareRetry' },
        SEND: {
          guard: 'hasText',
          target: '#replying',
          actions: 'addUserMessage',
        },
        EDIT: {
          guard: 'isEditable',
          target: '#replying',
          actions: 'addUserMessage',
        },
        REGENERATE: {
          guard: 'isReply',
          target: '#replying',
          actions: 'askAgain',
        },
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
