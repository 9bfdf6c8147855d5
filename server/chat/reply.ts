import type { FastifyBaseLogger } from 'fastify';
import { chargeUser, insufficientBalance } from '../billing/charge';
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { type Provider, ProviderError, type Turn } from './providers/types';
import type { Owner } from './topics';

export interface ReplyJob {
  db: Db;
  owner: Owner;
  topicId: string;
  bot: { name: string; price: number; config: Record<string, unknown> };
  history: Turn[];
  text: string;
  provider: Provider;
  signal: AbortSignal;
  log: FastifyBaseLogger;
  /** Sends one server-sent event to the client. */
  send: (event: string, data: unknown) => void;
}

/** Stores the user's message first: whatever fails after it, the message is kept. */
export async function storeUserMessage(db: Db, topicId: string, text: string): Promise<string> {
  // One statement, so one round trip and atomic: the message, and the topic's title from the first one.
  const { rows } = await db.query<{ id: string }>(
    `with message as (insert into messages (topic_id, role, text) values ($1, 'user', $2) returning id),
          touched as (update topics set updated_at = now(), title = case when title = '' then left($3, 80) else title end where id = $1)
     select id from message`,
    [topicId, text, text.replace(/\s+/g, ' ').trim()],
  );
  return rows[0].id;
}

async function storeStopped(db: Db, topicId: string, text: string): Promise<string | undefined> {
  if (!text) return undefined;
  const { rows } = await db.query<{ id: string }>(
    "insert into messages (topic_id, role, text, stopped) values ($1, 'bot', $2, true) returning id",
    [topicId, text],
  );
  return rows[0].id;
}

/**
 * Generates the reply and streams it; a finished reply is stored and charged in one transaction,
 * a stopped or failed one is stored as far as it got, marked stopped, and not charged.
 */
export async function generateReply(job: ReplyJob, userMessageId: string): Promise<void> {
  let text = '';
  try {
    for await (const piece of job.provider({
      history: job.history,
      text: job.text,
      config: job.bot.config,
      tenant: job.owner.tenant,
      signal: job.signal,
    })) {
      text += piece;
      job.send('token', { text: piece });
    }
    if (job.signal.aborted) {
      await storeStopped(job.db, job.topicId, text);
      return;
    }
    const done = await job.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: string }>(
        "insert into messages (topic_id, role, text) values ($1, 'bot', $2) returning id",
        [job.topicId, text],
      );
      await tx.query('update topics set updated_at = now() where id = $1', [job.topicId]);
      const { balance } = await chargeUser(tx, {
        ...job.owner,
        amount: job.bot.price,
        description: `Reply from ${job.bot.name}`,
      });
      return { botMessageId: rows[0].id, balance };
    });
    job.send('done', {
      userMessageId,
      botMessageId: done.botMessageId,
      cost: job.bot.price,
      balance: done.balance,
    });
  } catch (error) {
    const known = error instanceof ProviderError || error instanceof ApiError;
    if (!known) job.log.error({ err: error }, 'reply failed');
    const botMessageId = await storeStopped(job.db, job.topicId, text).catch(() => undefined);
    if (job.signal.aborted) return;
    const failure =
      error instanceof ApiError && error.code === insufficientBalance().code
        ? error
        : known
          ? (error as ProviderError)
          : new ProviderError('The reply failed on our side. Please try again.', 'INTERNAL');
    job.send('error', {
      error: failure.message,
      code: failure.code,
      ...(botMessageId ? { botMessageId } : {}),
    });
  }
}
