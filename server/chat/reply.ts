import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { knowledgeOf } from '../bots/config';
import type { Db } from '../db/database';
import { passageRoom, withAttachments } from '../files/prompt';
import { citationOf, documentsCarried, retrieve } from '../knowledge/retrieval';
import type { Owner } from '../owner';
import { type Attachment, type Knowledge, type Provider, ProviderError, type Turn } from '../providers/types';
import { librarianPassages } from '../replies/engines/librarian';
import { type BotTools, toolsForBot } from '../tools/registry';
import { replyTools } from '../tools/run';
import type { LiveReply } from './liveReplies';
import { checkpoint, release, type StartedReply, settle } from './replyStore';
import type { ReplyEvent } from './sse';

/** How often the text of a streaming reply is stored: a crash loses at most this much of it. */
export const checkpointMs = 500;

export interface ReplyJob {
  db: Db;
  owner: Owner;
  topicId: string;
  bot: { id: string; name: string; config: Record<string, unknown> };
  /** The branch before the message being answered, oldest first. */
  history: Turn[];
  /** The message being answered, and the files it carries. */
  text: string;
  attachments: Attachment[];
  /** The passages found for the question, when the bot searches; their citations end the reply. */
  knowledge?: Knowledge;
  provider: Provider;
  /** The bot's tools, for a model bot that has some. */
  tools?: BotTools;
  /** What was written of a reply that is continued: the provider writes what follows. */
  continuing?: string;
  log: FastifyBaseLogger;
}

/** What a bot is given to answer: the conversation with its files, the passages found, its tools. */
export interface ReplyContext {
  history: Turn[];
  attachments: Attachment[];
  text: string;
  knowledge?: Knowledge;
  tools: BotTools;
}

/**
 * The conversation as the bot is given it: with its files (when it carries any: the stored message
 * `messageId` and those before it), and with the passages that answer the question for a bot that
 * searches (the Librarian: the conversation's documents and its knowledge bases; a model bot: its
 * knowledge bases, and documents too long for its context, with half of that context kept for
 * passages), and the bot's tools. A chat reply and the admin's "Try it" alike.
 */
export async function replyContext(
  app: FastifyInstance,
  who: Owner,
  bot: { platform: string; config: Record<string, unknown> },
  conversation: { history: Turn[]; text: string; messageId?: string },
  carriesFiles = false,
): Promise<ReplyContext> {
  const bases = knowledgeOf(bot.config);
  const model = bot.platform === 'openai';
  const librarian = bot.platform === 'builtin' && bot.config.engine === 'librarian';
  const room = passageRoom(bot.config);
  const { messageId } = conversation;
  const files = carriesFiles && messageId !== undefined;
  let context: { history: Turn[]; attachments: Attachment[]; unfit: string[] } = {
    history: conversation.history,
    attachments: [],
    unfit: [],
  };
  if (files) {
    const read = (reserve: number) =>
      withAttachments(app.db, who, { ...conversation, messageId }, bot.config, reserve);
    context = await read(model && bases.length ? room : 0);
    if (model && !bases.length && context.unfit.length) context = await read(room);
  }
  let knowledge: Knowledge | undefined;
  if (librarian) {
    const ids = [
      ...conversation.history.flatMap((turn) => (turn.id ? [turn.id] : [])),
      ...(messageId ? [messageId] : []),
    ];
    const documents = files ? await documentsCarried(app, who, ids) : [];
    knowledge = await retrieve(app, who, {
      question: conversation.text,
      bases,
      documents,
      limit: librarianPassages,
    });
  } else if (model && (bases.length || context.unfit.length)) {
    knowledge = await retrieve(app, who, {
      question: conversation.text,
      bases,
      documents: context.unfit,
      limit: 5,
      room,
    });
  }
  return {
    history: context.history,
    attachments: context.attachments,
    text: conversation.text,
    knowledge,
    tools: await toolsForBot(app, who, bot),
  };
}

export const stoppedCode = 'STOPPED';
const stoppedEvent = (ids: object) => ({ error: 'The reply was stopped.', code: stoppedCode, ...ids });

/** The last event of a reply that was ended by someone else: stopped from another node, cut off, or deleted. */
async function endedElsewhere(db: Db, messageId: string, ids: object): Promise<ReplyEvent> {
  const { rows } = await db.query<{ status: string }>('select status from messages where id = $1', [
    messageId,
  ]);
  if (rows[0]?.status === 'stopped') return { event: 'error', data: stoppedEvent(ids) };
  if (!rows[0])
    return { event: 'error', data: { error: 'This conversation does not exist.', code: 'NOT_FOUND' } };
  return {
    event: 'error',
    data: { error: 'The reply was interrupted. Please try again.', code: 'INTERRUPTED', ...ids },
  };
}

/**
 * Generates the reply into `live`, independently of any request: followers come and go. The text is
 * checkpointed every `checkpointMs` (which also renews the reply's lease); a finished reply is
 * settled (stored and charged what was reserved), a stopped or failed one is kept as far as it got
 * and its reservation released.
 */
export async function generateReply(job: ReplyJob, live: LiveReply, started: StartedReply): Promise<void> {
  const messageId = started.botMessageId;
  const { signal } = live.controller;
  const ids = {
    ...(started.userMessageId ? { userMessageId: started.userMessageId } : {}),
    botMessageId: messageId,
  };
  let lost = false;
  let free = false;
  const timer = setInterval(() => {
    checkpoint(job.db, messageId, live.text).then(
      (mine) => {
        // Ended elsewhere (stopped from another node, interrupted, or the topic deleted): stop spending.
        if (!mine) {
          lost = true;
          live.stop();
        }
      },
      (error) => job.log.warn({ err: error }, 'checkpoint failed'),
    );
  }, checkpointMs);

  const tools = job.tools
    ? replyTools({
        db: job.db,
        owner: { tenant: job.owner.tenant, messageId },
        bot: job.tools,
        signal,
        approvals: true,
        log: job.log,
        after: live.steps().length,
        show: (step) => live.emit({ event: 'step', data: { botMessageId: messageId, step } }),
      })
    : undefined;

  try {
    for await (const piece of job.provider({
      history: job.history,
      text: job.text,
      attachments: job.attachments,
      knowledge: job.knowledge,
      config: job.bot.config,
      tenant: job.owner.tenant,
      signal,
      waive: () => {
        free = true;
      },
      tools,
      continuing: job.continuing,
    })) {
      live.emit({ event: 'token', id: live.text.length + piece.length, data: { text: piece } });
    }
    clearInterval(timer);
    if (lost) return live.emit(await endedElsewhere(job.db, messageId, ids));
    if (signal.aborted) {
      const kept = await release(job.db, job.owner, { messageId, text: live.text, status: 'stopped' });
      live.emit({ event: 'error', data: stoppedEvent(kept ? ids : {}) });
      return;
    }
    const charged = await settle(job.db, job.owner, {
      messageId,
      text: live.text,
      description: `Reply from ${job.bot.name}`,
      free,
    });
    if (!charged) return live.emit(await endedElsewhere(job.db, messageId, ids));
    const citations = job.knowledge?.passages.map(citationOf) ?? [];
    const steps = live.steps();
    live.emit({
      event: 'done',
      data: {
        ...ids,
        ...charged,
        ...(citations.length ? { citations } : {}),
        ...(steps.length ? { steps } : {}),
      },
    });
  } catch (error) {
    clearInterval(timer);
    if (lost) return live.emit(await endedElsewhere(job.db, messageId, ids));
    const known = error instanceof ProviderError;
    if (!known) job.log.error({ err: error }, 'reply failed');
    const status = signal.aborted ? 'stopped' : 'failed';
    const kept = await release(job.db, job.owner, { messageId, text: live.text, status }).catch((failure) => {
      job.log.error({ err: failure }, 'releasing a reply failed');
      return false;
    });
    const shown = kept ? ids : {};
    if (status === 'stopped') {
      live.emit({ event: 'error', data: stoppedEvent(shown) });
      return;
    }
    const failure = known
      ? error
      : new ProviderError('The reply failed on our side. Please try again.', 'INTERNAL');
    live.emit({ event: 'error', data: { error: failure.message, code: failure.code, ...shown } });
  }
}
