import { randomUUID } from 'node:crypto';
import { shortTitle } from '../chat/titles';
import { unreadableExport } from './jsonArray';

/** Where an export comes from. */
export type Source = 'chatgpt' | 'claude';

/** A message as Parley keeps it: `parent` is the id of the message it follows (null: a first one). */
export interface ImportedMessage {
  id: string;
  parent: string | null;
  role: 'user' | 'bot';
  text: string;
  createdAt: Date | null;
}

/** One conversation of an export, as a topic: its messages parents first, `head` the branch on screen. */
export interface ImportedConversation {
  /** The source and the conversation's id there: importing it again adds nothing. */
  key: string;
  title: string;
  createdAt: Date | null;
  updatedAt: Date | null;
  messages: ImportedMessage[];
  head: string | null;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown) => (typeof value === 'string' ? value : '');
/** Text as PostgreSQL keeps it: no NUL, no lone surrogate halves. */
const clean = (value: string) => value.replaceAll('\u0000', '').toWellFormed();

/** A time given as Unix seconds (ChatGPT) or ISO text (Claude); null when absent or absurd. */
function timeOf(value: unknown): Date | null {
  const date =
    typeof value === 'number' ? new Date(value * 1000) : typeof value === 'string' ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime())) return null;
  const year = date.getUTCFullYear();
  return year >= 2000 && year <= 9999 ? date : null;
}

/** What is left out of an import is said in the message, where it was. */
const absent = (what: string) => `[${what} not imported]`;

/** The export a conversation comes from, by its shape: ChatGPT's `mapping`, Claude's `chat_messages`. */
export function sourceOf(item: unknown): Source | null {
  if (!isObject(item)) return null;
  if (isObject(item.mapping)) return 'chatgpt';
  if (Array.isArray(item.chat_messages)) return 'claude';
  return null;
}

/** The conversation `item` (the `index`th of the file) as a topic, or a 422 saying what is wrong. */
export function conversationOf(item: unknown, index: number): ImportedConversation {
  const source = sourceOf(item);
  if (!source)
    throw unreadableExport(
      `Conversation ${index + 1} is not a conversation of ChatGPT (with "mapping") or Claude (with "chat_messages").`,
    );
  const conversation = source === 'chatgpt' ? fromChatGpt(item as Json) : fromClaude(item as Json);
  if (!conversation)
    throw unreadableExport(`Conversation ${index + 1} has no id: this is not an export of conversations.`);
  return conversation;
}

/** Titles as they came, kept within what a member may write; the first message's line when there is none. */
function titleOf(title: string, messages: ImportedMessage[]) {
  const kept = [...clean(title).replace(/\s+/g, ' ').trim()].slice(0, 200).join('');
  return kept || shortTitle(messages.find((message) => message.role === 'user')?.text ?? '');
}

/** A ChatGPT message's text: its text parts, and what it carried that is not imported said as text. */
function chatGptText(message: Json): string {
  const content = isObject(message.content) ? message.content : {};
  if (!['text', 'multimodal_text'].includes(text(content.content_type))) return '';
  const pieces: string[] = [];
  for (const part of Array.isArray(content.parts) ? content.parts : []) {
    if (typeof part === 'string') pieces.push(part);
    else if (isObject(part) && part.content_type === 'audio_transcription') pieces.push(text(part.text));
    else if (isObject(part) && part.content_type === 'image_asset_pointer') pieces.push(absent('Image'));
    else if (isObject(part)) pieces.push(absent('Attachment'));
  }
  const metadata = isObject(message.metadata) ? message.metadata : {};
  for (const file of Array.isArray(metadata.attachments) ? metadata.attachments : [])
    if (isObject(file)) pieces.push(absent(`Attachment “${text(file.name) || 'file'}”`));
  return clean(pieces.filter((piece) => piece.trim()).join('\n\n')).trim();
}

/**
 * Whether a ChatGPT node is a message the member saw: the user's or the assistant's words to them.
 * System prompts, tool calls and their results (`recipient` other than all, role tool), hidden context
 * (custom instructions), thoughts and code run by a tool are left out; their children hang on.
 */
function shownChatGpt(message: unknown): message is Json {
  if (!isObject(message)) return false;
  const role = isObject(message.author) ? message.author.role : undefined;
  if (role !== 'user' && role !== 'assistant') return false;
  if (message.recipient !== undefined && message.recipient !== 'all') return false;
  const metadata = isObject(message.metadata) ? message.metadata : {};
  return !metadata.is_visually_hidden_from_conversation;
}

/**
 * ChatGPT's conversation: `mapping` is its tree (nodes with `parent`, `children` and a `message`),
 * `current_node` the leaf on screen. Every branch is kept: each node shown becomes a message under
 * the nearest shown node above it; the head is the nearest shown node at or above `current_node`.
 */
function fromChatGpt(item: Json): ImportedConversation | null {
  const id = text(item.conversation_id) || text(item.id);
  if (!id) return null;
  const mapping = item.mapping as Json;
  const nodeOf = (key: string) =>
    Object.hasOwn(mapping, key) && isObject(mapping[key]) ? mapping[key] : null;
  // Parley's id of each node shown, and for the others the id of the message they hang on (or null).
  const placed = new Map<string, string | null>();
  const messages: ImportedMessage[] = [];
  const roots = Object.keys(mapping).filter((key) => {
    const parent = text(nodeOf(key)?.parent);
    return !parent || !nodeOf(parent);
  });
  // Depth first without recursion (a conversation may be thousands of nodes deep); each node once.
  const stack: [string, string | null][] = roots.reverse().map((key) => [key, null]);
  while (stack.length) {
    const [key, above] = stack.pop() as [string, string | null];
    if (placed.has(key)) continue;
    const node = nodeOf(key);
    if (!node) continue;
    let here = above;
    if (shownChatGpt(node.message)) {
      const body = chatGptText(node.message);
      if (body) {
        here = randomUUID();
        const role = (node.message.author as Json).role === 'user' ? 'user' : 'bot';
        messages.push({
          id: here,
          parent: above,
          role,
          text: body,
          createdAt: timeOf(node.message.create_time),
        });
      }
    }
    placed.set(key, here);
    const children = Array.isArray(node.children)
      ? node.children.filter((child) => typeof child === 'string')
      : [];
    for (const child of children.reverse()) stack.push([child, here]);
  }
  return {
    key: `chatgpt:${id}`,
    title: titleOf(text(item.title), messages),
    createdAt: timeOf(item.create_time),
    updatedAt: timeOf(item.update_time),
    messages,
    head: placed.get(text(item.current_node)) ?? messages.at(-1)?.id ?? null,
  };
}

/** A Claude message's text: its text blocks (or `text`), and the files it carried said as text. */
function claudeText(message: Json): string {
  const blocks = Array.isArray(message.content) ? message.content.filter(isObject) : [];
  const written = blocks.filter((block) => block.type === 'text').map((block) => text(block.text));
  const pieces = written.length ? written : [text(message.text)];
  for (const file of [
    ...(Array.isArray(message.attachments) ? message.attachments : []),
    ...(Array.isArray(message.files) ? message.files : []),
  ])
    if (isObject(file)) pieces.push(absent(`Attachment “${text(file.file_name) || 'file'}”`));
  return clean(pieces.filter((piece) => piece.trim()).join('\n\n')).trim();
}

/**
 * Claude's conversation: `chat_messages` in order, each from the `human` or the `assistant`. With
 * `parent_message_uuid` (newer exports) its branches are kept; without, each follows the one before.
 * The head is `current_leaf_message_uuid`, else the last message.
 */
function fromClaude(item: Json): ImportedConversation | null {
  const id = text(item.uuid);
  if (!id) return null;
  const placed = new Map<string, string | null>();
  const messages: ImportedMessage[] = [];
  let previous: string | null = null;
  for (const message of (item.chat_messages as unknown[]).filter(isObject)) {
    // A parent that is no message of the conversation (Claude's root id) starts a first message.
    const parentKey = text(message.parent_message_uuid);
    const above: string | null = parentKey ? (placed.get(parentKey) ?? null) : previous;
    const role = message.sender === 'human' ? 'user' : message.sender === 'assistant' ? 'bot' : null;
    const body = role ? claudeText(message) : '';
    let here: string | null = above;
    if (role && body) {
      here = randomUUID();
      messages.push({ id: here, parent: above, role, text: body, createdAt: timeOf(message.created_at) });
    }
    if (text(message.uuid)) placed.set(text(message.uuid), here);
    previous = here;
  }
  const leaf = text(item.current_leaf_message_uuid);
  return {
    key: `claude:${id}`,
    title: titleOf(text(item.name), messages),
    createdAt: timeOf(item.created_at),
    updatedAt: timeOf(item.updated_at),
    messages,
    head: (leaf && placed.get(leaf)) || messages.at(-1)?.id || null,
  };
}
