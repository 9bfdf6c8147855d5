import { assign, type EventObject, fromCallback, fromPromise } from 'xstate';
import { errorParams, messageOf } from './errors';
import {
  type ChatMessage,
  type Citation,
  isPending,
  type MessageFile,
  type MessageStatus,
  messageById,
  showing,
  storedHead,
  streamingReply,
  type ToolStep,
  type TopicRecord,
  withMessage,
  withoutPending,
  withReplyEnded,
  withReplyStarted,
  withStep,
} from './messageTree';

/**
 * The reply of a conversation while the server writes it: it streams in (or is followed after the
 * topic is opened, or once the network is back), calls tools (some after the user's Allow), and ends
 * complete, failed or stopped. The topic machine takes its states (`replyStates`: `live` and
 * `stopping`) and what they name in its setup (`replyActors`, `replyGuards`, `replyActions`,
 * `replyDelays`); it provides `assignTopic` (the topic as stored, `{ stored }`) and the states the
 * reply ends in (`#ready`, `#replyFailed`, `#insufficientBalance`, `#loading`).
 */

export interface ChatError {
  message: string;
  code: string;
}

/** What an invoked actor's error says, as a ChatError. */
export const toChatError = (error: unknown): ChatError => ({
  message: messageOf(error),
  code: (error as { code?: string })?.code ?? 'UNKNOWN',
});

/**
 * What a reply answers: a message sent (after `parent`, or the first with null), a reply asked for
 * again, or a reply that ended early going on in the same message.
 */
export type ReplyRequest =
  /** `webSearch`: the member's "Search the web" for this message. */
  | { kind: 'send'; text: string; parent: string | null; files?: string[]; webSearch?: true }
  /** `model`: another of the bot's models writes it ("Regenerate with…"); the conversation keeps its own. */
  | { kind: 'regenerate'; messageId: string; model?: string }
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
      /** The conversation's title, when the bot's model just wrote it (after its first reply). */
      title?: string;
      /** The files the reply made (images its tools generated). */
      files?: MessageFile[];
    }
  /** A tool call of the reply was announced (running, or waiting for approval) or ended. */
  | { type: 'STEP'; botMessageId: string; step: ToolStep }
  | { type: 'FAILED'; error: ChatError; botMessageId?: string }
  /** The connection dropped after the server took the message: the reply goes on being written there. */
  | { type: 'DISCONNECTED' }
  /** Nothing is being written in the topic any more: the reply ended while nobody followed it. */
  | { type: 'NOT_STREAMING' };

/** What the user (or the network) tells a reply being written. */
export type ReplyControlEvent =
  | { type: 'STOP' }
  /** The user's Allow of an "ask first" tool call: the only way such a call runs. */
  | { type: 'APPROVE_TOOL'; callId: string }
  /** The user's Deny of an "ask first" tool call. */
  | { type: 'DENY_TOOL'; callId: string }
  /** The network is back. */
  | { type: 'ONLINE' };

/** Allow (`approve`) or Deny of one tool call. */
export interface ToolDecision {
  callId: string;
  approve: boolean;
}

/** What the reply keeps in the topic machine's context. */
export interface ReplyContext {
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

export const insufficientBalanceCode = 'INSUFFICIENT_BALANCE';
/** The member's spend this month reached the budget of their groups: no reply until the next month. */
export const budgetReachedCode = 'BUDGET_REACHED';
/** The ending of a reply someone stopped: not a failure. */
export const stoppedCode = 'STOPPED';
/** What the server refuses in a message before storing anything: the message goes back to the composer. */
export const refusedMessageCodes = ['VISION_UNSUPPORTED'];
const interruptedCode = 'INTERRUPTED';

export const replyActors = {
  /** Sends the request and streams the reply back as ReplyEvents; leaving only stops listening. */
  streamReply: fromCallback<ReplyEvent, { topicId: string; request: ReplyRequest }>(() => {
    throw new Error('streamReply is provided by the app');
  }),
  /** Follows the reply being written in the topic, from `offset` characters on, as ReplyEvents. */
  followReply: fromCallback<ReplyEvent, { topicId: string; offset: number }>(() => {
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
  watchNetwork: fromCallback<ReplyControlEvent>(() => {
    throw new Error('watchNetwork is provided by the app');
  }),
};

/** A tool step an event brings: a STEP's, or the server's answer to the user's Allow or Deny. */
interface BroughtStep {
  botMessageId?: string;
  step: ToolStep;
}

/** The reply a step belongs to: the one it names, or else the one being written. */
const replyOfStep = (context: ReplyContext, botMessageId?: string) =>
  (botMessageId ? messageById(context.topic, botMessageId) : undefined) ??
  (context.topic ? streamingReply(context.topic) : undefined);

/** The steps of the reply being written, with the one an event brings. */
const stepsAfter = (context: ReplyContext, brought?: BroughtStep): ToolStep[] => {
  const reply = replyOfStep(context, brought?.botMessageId);
  const steps = reply?.steps ?? [];
  return brought && reply ? withStep(steps, brought.step) : steps;
};

type Failure = { error: ChatError; botMessageId?: string };

export const replyGuards = {
  /** The server confirms a reply once: the first STORED of it. */
  awaitsStorage: ({ context }: { context: ReplyContext }) =>
    !context.topic || streamingReply(context.topic) === undefined,
  /** The reply cannot be paid: the balance is short, or the monthly budget is reached. */
  isInsufficientBalance: (_: unknown, { error }: Failure) =>
    error.code === insufficientBalanceCode || error.code === budgetReachedCode,
  isStopped: (_: unknown, { error }: Failure) => error.code === stoppedCode,
  /** The server refused a message it has not stored (only a message on its way can be). */
  isRefusedMessage: ({ context }: { context: ReplyContext }, { error }: Failure) =>
    refusedMessageCodes.includes(error.code) && context.messages.some((message) => isPending(message._id)),
  /** A tool call of the reply waits for the user's Allow or Deny (counting a step a STEP brings). */
  awaitsApproval: ({ context }: { context: ReplyContext }, brought: BroughtStep | undefined) =>
    stepsAfter(context, brought).some((step) => step.status === 'awaiting_approval'),
  /** A tool the reply called is at work. */
  runsTool: ({ context }: { context: ReplyContext }) =>
    stepsAfter(context).some((step) => step.status === 'running'),
  /** The user answers a call that waits for them: nothing else (no text, no tool's result) approves one. */
  isAwaitedCall: ({ context }: { context: ReplyContext }, { callId }: { callId: string }) =>
    context.topic !== null &&
    stepsAfter(context).some((step) => step.callId === callId && step.status === 'awaiting_approval'),
};

export const replyDelays = {
  /** Tries again after 1, 2, 4… seconds, at most every 15. */
  reattachDelay: ({ context }: { context: ReplyContext }) => Math.min(15_000, 1000 * 2 ** context.reattempts),
};

/** The reply's fields of the machine's context: the context is the machine's own type, these a part of it. */
const part = <TContext>(values: Partial<ReplyContext>) => values as Partial<TContext>;

/** The reply named (or the one being written) ended early, with the text written so far. */
function endedEarly(context: ReplyContext, botMessageId: string | undefined, status: MessageStatus) {
  const topic = context.topic as TopicRecord;
  const id = botMessageId ?? streamingReply(topic)?._id;
  const known = id ? messageById(topic, id) : undefined;
  return known ? { ...withReplyEnded(topic, known, context.draft, status), draft: '' } : { draft: '' };
}

/** The reply's actions, for its machine's setup. */
export function replyActions<TContext extends ReplyContext, TEvent extends EventObject>() {
  return {
    /** Effects the app provides: the balance after a charged reply (the DONE event's `balance`)… */
    announceCharge: () => {
      throw new Error('announceCharge is provided by the app');
    },
    /** …and the conversation list, which shows what the server now holds. */
    announceConversationChange: () => {
      throw new Error('announceConversationChange is provided by the app');
    },
    /**
     * The server stored the user's message (or took the one answered again) and started the reply: a
     * new one, or the one that goes on.
     */
    confirmUserMessage: assign<TContext, TEvent, ReplyEvent & { type: 'STORED' }, TEvent, never>(
      ({ context }, stored) =>
        part<TContext>(withReplyStarted(context.topic as TopicRecord, context.messages, stored)),
    ),
    appendToken: assign<TContext, TEvent, { text: string; end?: number }, TEvent, never>(
      ({ context }, { text, end }) =>
        part<TContext>({
          draft:
            end === undefined
              ? context.draft + text
              : context.draft.slice(0, Math.max(0, end - text.length)) + text,
          reattempts: 0,
        }),
    ),
    finishReply: assign<TContext, TEvent, ReplyEvent & { type: 'DONE' }, TEvent, never>(
      ({ context }, done) => {
        const topic = context.topic as TopicRecord;
        const known = messageById(topic, done.botMessageId);
        const steps = done.steps ?? known?.steps;
        const reply: ChatMessage = {
          _id: done.botMessageId,
          parent: known?.parent ?? storedHead(context.messages),
          role: 'bot',
          text: context.draft,
          status: 'complete',
          cost: done.cost,
          createdAt: known?.createdAt ?? done.createdAt,
          ...(done.citations?.length ? { citations: done.citations } : {}),
          ...(steps?.length ? { steps } : {}),
          ...(done.files?.length ? { files: done.files } : {}),
        };
        const titled = done.title ? { ...topic, title: done.title } : topic;
        return part<TContext>({
          ...showing(titled, withMessage(topic.messages, reply), reply._id),
          draft: '',
        });
      },
    ),
    /** A reply someone stopped keeps what was written of it (and its tool steps)… */
    keepStoppedReply: assign<TContext, TEvent, Failure, TEvent, never>(({ context }, { botMessageId }) =>
      part<TContext>(endedEarly(context, botMessageId, 'stopped')),
    ),
    /** …and so does one that failed, marked interrupted (its writer crashed) or failed. */
    keepFailedReply: assign<TContext, TEvent, Failure, TEvent, never>(
      ({ context }, { error, botMessageId }) =>
        part<TContext>(
          endedEarly(context, botMessageId, error.code === interruptedCode ? 'interrupted' : 'failed'),
        ),
    ),
    /** A tool step of the reply, new or changed: announced, ended, or answered by the user. */
    assignStep: assign<TContext, TEvent, BroughtStep, TEvent, never>(({ context }, brought) => {
      const reply = replyOfStep(context, brought.botMessageId);
      if (!reply || !context.topic) return {};
      const changed = { ...reply, steps: withStep(reply.steps, brought.step) };
      return part<TContext>(
        showing(context.topic, withMessage(context.topic.messages, changed), context.topic.head),
      );
    }),
    assignDecision: assign<TContext, TEvent, ToolDecision, TEvent, never>((_, decision) =>
      part<TContext>({ decision, decisionError: null }),
    ),
    assignDecisionError: assign<TContext, TEvent, { error: unknown }, TEvent, never>((_, { error }) =>
      part<TContext>({ decisionError: toChatError(error) }),
    ),
    assignError: assign<TContext, TEvent, Failure, TEvent, never>((_, { error }) =>
      part<TContext>({ error }),
    ),
    countReattempt: assign<TContext, TEvent, undefined, TEvent, never>(({ context }) =>
      part<TContext>({ reattempts: context.reattempts + 1 }),
    ),
    /**
     * The server refused the message before storing anything (an image for a bot that cannot see):
     * it leaves the conversation and goes back to the composer with its files, the reason shown.
     */
    returnMessage: assign<TContext, TEvent, Failure, TEvent, never>(({ context }, { error }) => {
      const { pending, ...shown } = withoutPending(context.topic as TopicRecord, context.messages);
      return part<TContext>({
        ...shown,
        draft: '',
        error,
        returned: { text: pending?.text ?? '', files: pending?.files ?? [] },
      });
    }),
  };
}

// The params of the reply's actions and guards, from the event each transition takes.
const failure = ({ event }: { event: Failure }): Failure => ({
  error: event.error,
  botMessageId: event.botMessageId,
});
const stepOf = ({ event }: { event: BroughtStep }): BroughtStep => ({
  botMessageId: event.botMessageId,
  step: event.step,
});
const decidedStep = ({ event }: { event: { output: ToolStep } }): BroughtStep => ({ step: event.output });
const decisionOf = ({ event }: { event: { type: string; callId: string } }): ToolDecision => ({
  callId: event.callId,
  approve: event.type === 'APPROVE_TOOL',
});
const callOf = ({ event }: { event: { callId: string } }) => ({ callId: event.callId });
const storedOf = ({ event }: { event: ReplyEvent & { type: 'STORED' } }) => event;
const tokenOf = ({ event }: { event: { text: string; end?: number } }) => ({
  text: event.text,
  end: event.end,
});
const doneOf = ({ event }: { event: ReplyEvent & { type: 'DONE' } }) => event;

/** Allow or Deny of a call that waits for the user: the answer goes to the server. */
const decide = {
  guard: { type: 'isAwaitedCall', params: callOf },
  target: 'deciding',
  actions: { type: 'assignDecision', params: decisionOf },
} as const;

/** The reply's states: `live` while it is written, `stopping` while Stop is on its way. */
export const replyStates = {
  live: {
    id: 'live',
    description:
      'A reply is being written on the server: it streams in, can be stopped, and goes on when the user leaves.',
    type: 'parallel',
    on: {
      DONE: {
        target: '#ready',
        actions: [{ type: 'finishReply', params: doneOf }, 'announceCharge', 'announceConversationChange'],
      },
      STOP: '#stopping',
      FAILED: [
        {
          guard: { type: 'isRefusedMessage', params: failure },
          target: '#ready',
          actions: { type: 'returnMessage', params: failure },
        },
        {
          guard: { type: 'isInsufficientBalance', params: failure },
          target: '#insufficientBalance',
          actions: { type: 'assignError', params: failure },
        },
        {
          guard: { type: 'isStopped', params: failure },
          target: '#ready',
          actions: [{ type: 'keepStoppedReply', params: failure }, 'announceConversationChange'],
        },
        {
          target: '#replyFailed',
          actions: [
            { type: 'keepFailedReply', params: failure },
            { type: 'assignError', params: failure },
            'announceConversationChange',
          ],
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
              input: ({ context }: { context: ReplyContext }) => ({
                topicId: context.topicId ?? '',
                request: context.request ?? { kind: 'send' as const, text: '', parent: null },
              }),
            },
            on: {
              STORED: {
                guard: 'awaitsStorage',
                actions: [{ type: 'confirmUserMessage', params: storedOf }, 'announceConversationChange'],
              },
              TOKEN: { target: '.streaming', actions: { type: 'appendToken', params: tokenOf } },
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
              input: ({ context }: { context: ReplyContext }) => ({
                topicId: context.topicId ?? '',
                offset: context.draft.length,
              }),
            },
            on: {
              TOKEN: { target: '.following', actions: { type: 'appendToken', params: tokenOf } },
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
        on: { STEP: { target: '.noTool', actions: { type: 'assignStep', params: stepOf } } },
        states: {
          noTool: {
            id: 'noTool',
            description: "No tool is at work: the bot writes, or thinks; the reply's steps say where to go.",
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
                {
                  guard: { type: 'awaitsApproval', params: stepOf },
                  actions: { type: 'assignStep', params: stepOf },
                },
                { target: '#noTool', actions: { type: 'assignStep', params: stepOf } },
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
                  input: ({ context }: { context: ReplyContext }) => ({
                    topicId: context.topicId ?? '',
                    ...(context.decision ?? { callId: '', approve: false }),
                  }),
                  onDone: { target: '#noTool', actions: { type: 'assignStep', params: decidedStep } },
                  onError: {
                    target: 'decisionFailed',
                    actions: { type: 'assignDecisionError', params: errorParams },
                  },
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
      input: ({ context }: { context: ReplyContext }) => ({
        topicId: context.topicId ?? '',
        started: context.topic !== null && streamingReply(context.topic) !== undefined,
      }),
      onDone: {
        target: '#ready',
        actions: [
          {
            type: 'assignTopic',
            params: ({ event }: { event: { output: TopicRecord } }) => ({ stored: event.output }),
          },
          'announceConversationChange',
        ],
      },
      // Lost on the network, the stop may never have reached the server: it may still be writing.
      onError: {
        target: '#reattaching',
        description:
          'The stop is unconfirmed: the reply is followed again, or read as stored if nothing is written any more.',
      },
    },
  },
} as const;
