import type { FastifyInstance, FastifyReply } from 'fastify';
import { replyChannel } from '../db/channels';
import { openEventStream, type ReplyEvent } from '../replies/sse';
import { stepsOf } from '../tools/steps';
import type { LiveReply } from './liveReplies';
import { type StoredReply, storedReply } from './replyStore';

/** A follower here reads a reply another node writes at each NOTIFY of it, and at least this often. */
const relayFallbackMs = 2000;

/**
 * Following a reply on a response: one this node writes (its live reply), or one another node writes
 * (read from its checkpoints, at each NOTIFY on the reply channel). Stops listening when the server closes.
 */
export async function replyRelay(app: FastifyInstance) {
  // Followers of replies written elsewhere wake up when their reply is checkpointed or ends.
  const waiting = new Map<string, Set<() => void>>();
  const stopListening = await app.db.listen(replyChannel, (messageId) => {
    for (const wake of waiting.get(messageId) ?? []) wake();
  });
  app.addHook('onClose', () => stopListening());
  const nextChange = (messageId: string, abandoned: AbortSignal) =>
    new Promise<void>((resolve) => {
      const wakers = waiting.get(messageId) ?? new Set();
      waiting.set(messageId, wakers);
      const wake = () => {
        clearTimeout(timer);
        wakers.delete(wake);
        if (!wakers.size) waiting.delete(messageId);
        abandoned.removeEventListener('abort', wake);
        resolve();
      };
      const timer = setTimeout(wake, relayFallbackMs);
      wakers.add(wake);
      abandoned.addEventListener('abort', wake);
    });

  /** Follows a reply of this node: what the client missed after `offset`, then each event to the end. */
  async function followLive(reply: FastifyReply, writing: LiveReply, offset: number, first?: ReplyEvent) {
    const stream = openEventStream(reply);
    if (first) stream.send(first);
    if (writing.text.length > offset) {
      stream.send({ event: 'token', id: writing.text.length, data: { text: writing.text.slice(offset) } });
    }
    for (const step of writing.steps())
      stream.send({ event: 'step', data: { botMessageId: writing.botMessageId, step } });
    if (writing.ended) {
      stream.send(writing.ended);
      return stream.end();
    }
    await new Promise<void>((resolve) => {
      const unfollow = writing.follow((event) => {
        stream.send(event);
        if (event.event === 'token' || event.event === 'step') return;
        unfollow();
        stream.end();
        resolve();
      });
      stream.raw.on('close', () => {
        unfollow();
        resolve();
      });
    });
  }

  /** Follows a reply another node writes, from its checkpoints, until it ends or the client leaves. */
  async function followStored(reply: FastifyReply, userId: string, messageId: string, offset: number) {
    const stream = openEventStream(reply);
    const gone = new AbortController();
    stream.raw.on('close', () => gone.abort());
    let sent = offset;
    // Each step as last sent: a step is sent again when it changed.
    const stepsSent = new Map<string, string>();
    while (!gone.signal.aborted) {
      // Armed before the read, so a change during it is not missed.
      const changed = nextChange(messageId, gone.signal);
      const row = await storedReply(app.db, messageId, userId);
      if (row && row.text.length > sent) {
        stream.send({ event: 'token', id: row.text.length, data: { text: row.text.slice(sent) } });
        sent = row.text.length;
      }
      for (const step of stepsOf(row?.steps ?? null)) {
        const shown = JSON.stringify(step);
        if (stepsSent.get(step.callId) === shown) continue;
        stepsSent.set(step.callId, shown);
        stream.send({ event: 'step', data: { botMessageId: messageId, step } });
      }
      if (row?.status !== 'streaming') {
        stream.send(storedEnding(messageId, row));
        break;
      }
      await changed;
    }
    gone.abort();
    stream.end();
  }

  return { followLive, followStored };
}

/** The last event of a reply read from the database. */
function storedEnding(botMessageId: string, row: StoredReply | undefined): ReplyEvent {
  if (!row)
    return { event: 'error', data: { error: 'This conversation does not exist.', code: 'NOT_FOUND' } };
  if (row.status === 'complete')
    return {
      event: 'done',
      data: {
        botMessageId,
        cost: Number(row.cost ?? 0),
        balance: Number(row.balance),
        ...(row.citations ? { citations: row.citations } : {}),
        ...(row.steps ? { steps: stepsOf(row.steps) } : {}),
        ...(row.files ? { files: row.files.map((file) => ({ ...file, size: Number(file.size) })) } : {}),
      },
    };
  const endings: Record<string, { error: string; code: string }> = {
    stopped: { error: 'The reply was stopped.', code: 'STOPPED' },
    interrupted: { error: 'The reply was interrupted. Please try again.', code: 'INTERRUPTED' },
    failed: { error: 'The reply failed. Please try again.', code: 'PROVIDER_ERROR' },
  };
  return { event: 'error', data: { ...(endings[row.status] ?? endings.failed), botMessageId } };
}
