import type { FastifyBaseLogger } from 'fastify';
import type { Owner } from '../auth/sessions';
import type { Db } from '../db/database';
import { type Provider, ProviderError, type Turn } from './providers/types';
import { checkpoint, release, type StartedReply, settle } from './replyStore';

/** How often the text of a streaming reply is stored: a crash loses at most this much of it. */
export const checkpointMs = 500;

export interface ReplyJob {
  db: Db;
  owner: Owner;
  topicId: string;
  bot: { name: string; config: Record<string, unknown> };
  history: Turn[];
  text: string;
  provider: Provider;
  signal: AbortSignal;
  log: FastifyBaseLogger;
  /** Sends one server-sent event to the client. */
  send: (event: string, data: unknown) => void;
}

const interrupted = () => new ProviderError('The reply was interrupted. Please try again.', 'INTERRUPTED');

/**
 * Generates the reply and streams it. The text is checkpointed every `checkpointMs` (which also
 * renews the reply's lease); a finished reply is settled (stored and charged what was reserved), a
 * stopped or failed one is kept as far as it got and its reservation released.
 */
export async function generateReply(job: ReplyJob, started: StartedReply): Promise<void> {
  const reply = { ...started, messageId: started.botMessageId };
  const generation = new AbortController();
  const stop = () => generation.abort();
  job.signal.addEventListener('abort', stop);
  let text = '';
  let lost = false;
  const timer = setInterval(() => {
    const snapshot = text;
    checkpoint(job.db, reply.messageId, snapshot).then(
      (mine) => {
        // Ended elsewhere (interrupted, or the topic deleted): stop spending on it.
        if (!mine) {
          lost = true;
          stop();
        }
      },
      (error) => job.log.warn({ err: error }, 'checkpoint failed'),
    );
  }, checkpointMs);

  try {
    for await (const piece of job.provider({
      history: job.history,
      text: job.text,
      config: job.bot.config,
      tenant: job.owner.tenant,
      signal: generation.signal,
    })) {
      text += piece;
      job.send('token', { text: piece });
    }
    clearInterval(timer);
    if (lost) throw interrupted();
    if (job.signal.aborted) {
      await release(job.db, job.owner, { messageId: reply.messageId, text, status: 'stopped' });
      return;
    }
    const charged = await settle(job.db, job.owner, {
      topicId: job.topicId,
      messageId: reply.messageId,
      text,
      description: `Reply from ${job.bot.name}`,
    });
    if (!charged) throw interrupted();
    job.send('done', { userMessageId: reply.userMessageId, botMessageId: reply.messageId, ...charged });
  } catch (error) {
    clearInterval(timer);
    const known = error instanceof ProviderError;
    if (!known) job.log.error({ err: error }, 'reply failed');
    const status = job.signal.aborted ? 'stopped' : 'failed';
    // An interrupted reply is kept as it was marked; any other is kept as far as it got.
    const kept =
      lost ||
      (await release(job.db, job.owner, { messageId: reply.messageId, text, status }).catch((failure) => {
        job.log.error({ err: failure }, 'releasing a reply failed');
        return false;
      }));
    if (job.signal.aborted) return;
    const failure = known
      ? error
      : new ProviderError('The reply failed on our side. Please try again.', 'INTERNAL');
    job.send('error', {
      error: failure.message,
      code: failure.code,
      ...(kept ? { botMessageId: reply.messageId } : {}),
    });
  } finally {
    job.signal.removeEventListener('abort', stop);
  }
}
