// The messages of a conversation form a tree: each names the one it follows, an edit or a reply asked
// again starts a sibling, and the screen shows one branch of it. Plain functions over that tree, for the
// topic machine and its screens.

import type { ReplyFeedback } from './feedback';

/** complete, or still being written, or ended early: by the user, by a crash of its writer, or by an error. */
export type MessageStatus = 'complete' | 'streaming' | 'stopped' | 'interrupted' | 'failed';

/** A file a message carries (as the server keeps it); `removed` once its owner deleted it. */
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
  /** The files a message carries: a user's attachments, the images a reply generated. */
  files?: MessageFile[];
  /** The tools a bot reply called on its way, in order. */
  steps?: ToolStep[];
  /** A stored reply's: the member's own thumbs on it, null when none. */
  feedback?: ReplyFeedback | null;
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

/**
 * A source a reply cites: its number in the reply (`[n]`), what it says, and where: a passage's file
 * and page, or a web page (`url`) its search found.
 */
export interface Citation {
  n: number;
  fileId?: string;
  url?: string;
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
  /** The catalogue model its replies are written by (null: its bot runs on its own). */
  model?: string | null;
  /** Its temperature and maximum reply length, where its bot lets members set them. */
  parameters?: { temperature?: number; maxTokens?: number };
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

/** The steps with `step` added, or put in place of the one with its call id. */
export function withStep(steps: ToolStep[] = [], step: ToolStep): ToolStep[] {
  const index = steps.findIndex((other) => other.callId === step.callId);
  if (index < 0) return [...steps, step];
  return steps.map((other, at) => (at === index ? step : other));
}

/** The reply the server is writing in a topic, if any. */
export function streamingReply(topic: Pick<TopicRecord, 'messages'>): ChatMessage | undefined {
  return topic.messages.find((message) => message.status === 'streaming');
}

export const messageById = (topic: TopicRecord | null, id: string) =>
  topic?.messages.find((message) => message._id === id);

/** The topic with its messages changed, and the branch on screen that follows from it. */
export function showing(topic: TopicRecord, messages: ChatMessage[], head: string | null) {
  const changed = { ...topic, messages, head };
  return { topic: changed, messages: branchOnScreen(changed) };
}

/** A message on screen the server has not stored yet. */
export const isPending = (id: string) => id.startsWith('pending-');

/** The newest message of a branch the server has stored, which a new message follows. */
export function storedHead(branch: ChatMessage[]): string | null {
  const last = branch.at(-1);
  return last && !isPending(last._id) ? last._id : null;
}

/** A user's message waiting for the server to store it, the next of `count` messages of its topic. */
export function pendingMessage(
  count: number,
  text: string,
  parent: string | null,
  files: MessageFile[] = [],
): ChatMessage {
  return {
    _id: `pending-${count}`,
    key: `pending-${count}`,
    parent,
    role: 'user',
    text,
    status: 'complete',
    ...(files.length ? { files } : {}),
  };
}

/**
 * The topic as the server holds it, each message already on screen keeping its place there (its
 * `key`): read again (after Stop, say), it is not shown as a new one.
 */
export function keepingKeys(stored: TopicRecord, shown: TopicRecord | null): TopicRecord {
  const keys = new Map(
    (shown?.messages ?? []).flatMap((message) => (message.key ? [[message._id, message.key]] : [])),
  );
  return {
    ...stored,
    messages: stored.messages.map((message) => {
      const key = keys.get(message._id);
      return key ? { ...message, key } : message;
    }),
  };
}

/**
 * The server stored the pending message of the branch (or took the one answered again) and started
 * the reply: a new one after it, or the one named, which goes on. The branch ends at the reply.
 */
export function withReplyStarted(
  topic: TopicRecord,
  branch: ChatMessage[],
  stored: { userMessageId: string; botMessageId: string; createdAt: string },
) {
  const pending = branch.find((message) => isPending(message._id));
  const messages = topic.messages.map((message) =>
    message === pending ? { ...message, _id: stored.userMessageId, createdAt: stored.createdAt } : message,
  );
  const continued = messageById(topic, stored.botMessageId);
  const reply: ChatMessage = continued
    ? { ...continued, status: 'streaming' }
    : {
        _id: stored.botMessageId,
        parent: stored.userMessageId,
        role: 'bot',
        text: '',
        status: 'streaming',
        createdAt: stored.createdAt,
      };
  return showing(topic, withMessage(messages, reply), reply._id);
}

/**
 * A reply that ended early keeps its text (and its tool steps), marked with how it ended; with
 * nothing written and no tool called it leaves the tree, the branch ending at the message it answered.
 */
export function withReplyEnded(topic: TopicRecord, reply: ChatMessage, text: string, status: MessageStatus) {
  const kept = text !== '' || Boolean(reply.steps?.length);
  const messages = kept
    ? withMessage(topic.messages, { ...reply, text, status })
    : topic.messages.filter((message) => message._id !== reply._id);
  return showing(topic, messages, kept ? reply._id : reply.parent);
}

/** The branch's pending message taken out of the tree, the branch ending at what it followed. */
export function withoutPending(topic: TopicRecord, branch: ChatMessage[]) {
  const pending = branch.find((message) => isPending(message._id));
  const messages = topic.messages.filter((message) => message !== pending);
  return { pending, ...showing(topic, messages, pending ? pending.parent : topic.head) };
}
