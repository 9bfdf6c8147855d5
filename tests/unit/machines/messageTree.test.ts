// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  branchOnScreen,
  type ChatMessage,
  keepingKeys,
  newestLeafUnder,
  pendingMessage,
  siblingPosition,
  storedHead,
  type TopicRecord,
  withMessage,
  withoutPending,
  withReplyEnded,
  withReplyStarted,
  withStep,
} from '../../../machines/messageTree';

const message = (
  _id: string,
  parent: string | null,
  role: 'user' | 'bot',
  extra: Partial<ChatMessage> = {},
): ChatMessage => ({ _id, parent, role, text: _id, status: 'complete', ...extra });

/**
 * m1 ─┬─ m2            (a reply)
 *     └─ m3 ─┬─ m4     (another reply, then the user's message)
 *            └─ m5 ─ m6 (an edit of m4, and its reply)
 */
const messages = [
  message('m1', null, 'user'),
  message('m2', 'm1', 'bot'),
  message('m3', 'm1', 'bot'),
  message('m4', 'm3', 'user'),
  message('m5', 'm3', 'user'),
  message('m6', 'm5', 'bot'),
];
const topic = (head: string | null, list = messages): TopicRecord => ({
  _id: 't1',
  title: '',
  bot: { _id: 'b1', name: 'ELIZA' },
  head,
  messages: list,
});
const ids = (list: ChatMessage[]) => list.map((item) => item._id);

describe('the message tree', () => {
  it('shows the branch from the first message to the head, or every message without a head', () => {
    expect(ids(branchOnScreen(topic('m6')))).toEqual(['m1', 'm3', 'm5', 'm6']);
    expect(ids(branchOnScreen(topic('m2')))).toEqual(['m1', 'm2']);
    expect(ids(branchOnScreen(topic(null)))).toEqual(ids(messages));
  });

  it('stops a branch at a loop in malformed data', () => {
    const looped = [message('a', 'b', 'user'), message('b', 'a', 'bot')];
    expect(ids(branchOnScreen(topic('b', looped)))).toEqual(['a', 'b']);
  });

  it('places a message among its siblings of the same role: ‹ 2 / 2 ›, with the ones before and after', () => {
    expect(siblingPosition(messages, messages[2])).toEqual({
      index: 2,
      count: 2,
      previous: 'm2',
      next: null,
    });
    expect(siblingPosition(messages, messages[3])).toEqual({
      index: 1,
      count: 2,
      previous: null,
      next: 'm5',
    });
    expect(siblingPosition(messages, messages[0])).toEqual({
      index: 1,
      count: 1,
      previous: null,
      next: null,
    });
  });

  it('switches to the newest branch through a message', () => {
    expect(newestLeafUnder(messages, 'm3')).toBe('m6');
    expect(newestLeafUnder(messages, 'm2')).toBe('m2');
    expect(newestLeafUnder(messages, 'm1')).toBe('m6');
  });

  it('adds a message, or changes the one with its id', () => {
    expect(ids(withMessage(messages, message('m7', 'm6', 'user')))).toEqual([...ids(messages), 'm7']);
    const changed = withMessage(messages, { ...messages[1], text: 'changed' });
    expect(changed).toHaveLength(messages.length);
    expect(changed[1].text).toBe('changed');
  });

  it('adds a tool step, or puts it in place of the one with its call id', () => {
    const running = { callId: 'c1', tool: 'calculator', arguments: {}, status: 'running' as const, ms: 0 };
    const steps = withStep(undefined, running);
    expect(withStep(steps, { ...running, status: 'done', ms: 3 })).toEqual([
      { ...running, status: 'done', ms: 3 },
    ]);
    expect(withStep(steps, { ...running, callId: 'c2' })).toHaveLength(2);
  });

  it('follows the newest stored message of a branch, never a pending one', () => {
    expect(storedHead(branchOnScreen(topic('m6')))).toBe('m6');
    expect(storedHead([...messages, pendingMessage(6, 'Hi', 'm6')])).toBeNull();
    expect(storedHead([])).toBeNull();
  });

  it('keeps the keys of the messages on screen when the topic is read again', () => {
    const shown = topic('m6', withMessage(messages, { ...messages[5], key: 'pending-5' }));
    const stored = keepingKeys(topic('m6'), shown);
    expect(stored.messages.find((item) => item._id === 'm6')?.key).toBe('pending-5');
    expect(stored.messages.filter((item) => item.key)).toHaveLength(1);
  });

  it('confirms a pending message and starts its reply, or takes up the reply that goes on', () => {
    const pending = pendingMessage(6, 'And then?', 'm6');
    const sent = topic(pending._id, [...messages, pending]);
    const started = withReplyStarted(sent, branchOnScreen(sent), {
      userMessageId: 'm7',
      botMessageId: 'm8',
      createdAt: 'now',
    });
    expect(ids(started.messages)).toEqual(['m1', 'm3', 'm5', 'm6', 'm7', 'm8']);
    expect(started.messages.at(-2)).toMatchObject({ key: 'pending-6', createdAt: 'now' });
    expect(started.messages.at(-1)).toMatchObject({ parent: 'm7', status: 'streaming', text: '' });
    const stopped = topic('m6', withMessage(messages, { ...messages[5], status: 'stopped' }));
    const continued = withReplyStarted(stopped, branchOnScreen(stopped), {
      userMessageId: 'm5',
      botMessageId: 'm6',
      createdAt: 'now',
    });
    expect(continued.topic.messages).toHaveLength(messages.length);
    expect(continued.messages.at(-1)).toMatchObject({ _id: 'm6', text: 'm6', status: 'streaming' });
  });

  it('keeps a reply that ended early with its text or its steps, and drops an empty one', () => {
    const reply = message('m7', 'm6', 'bot', { status: 'streaming', text: '' });
    const writing = topic('m7', [...messages, reply]);
    expect(withReplyEnded(writing, reply, 'Half', 'stopped').messages.at(-1)).toMatchObject({
      _id: 'm7',
      text: 'Half',
      status: 'stopped',
    });
    const dropped = withReplyEnded(writing, reply, '', 'failed');
    expect(dropped.topic.messages).toEqual(messages);
    expect(dropped.topic.head).toBe('m6');
    const step = { callId: 'c1', tool: 'calculator', arguments: {}, status: 'done' as const, ms: 1 };
    const stepped = withReplyEnded(writing, { ...reply, steps: [step] }, '', 'interrupted');
    expect(stepped.messages.at(-1)).toMatchObject({ _id: 'm7', status: 'interrupted', steps: [step] });
  });

  it('takes a pending message out, the branch ending at what it followed', () => {
    const pending = pendingMessage(6, 'A picture', 'm6', [
      { _id: 'f1', name: 'a.png', type: 'image/png', size: 1 },
    ]);
    const sent = topic(pending._id, [...messages, pending]);
    const returned = withoutPending(sent, branchOnScreen(sent));
    expect(returned.pending).toBe(pending);
    expect(returned.topic.messages).toEqual(messages);
    expect(ids(returned.messages)).toEqual(['m1', 'm3', 'm5', 'm6']);
  });
});
