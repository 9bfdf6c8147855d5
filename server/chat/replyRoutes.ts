import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { botNotForYou, mayUseBot } from '../access/groups';
import { insufficientBalance } from '../billing/reservations';
import { canRun } from '../bots/availability';
import { replyChannel } from '../db/channels';
import { ApiError } from '../errors';
import { isImage } from '../files/kinds';
import { reachOf } from '../files/prompt';
import { filesToAttach } from '../files/store';
import { citationOf } from '../knowledge/retrieval';
import type { Attachment, Citation, Knowledge, Turn } from '../providers/types';
import { repeat } from '../repeat';
import { leaseSeconds } from '../replies/lease';
import type { BotTools } from '../tools/registry';
import { type Step, stepsJson, stepsOf, stepsOfMessage } from '../tools/steps';
import type { LiveReply } from './liveReplies';
import { generateReply, replyContext } from './reply';
import {
  interruptOrphans,
  notContinuable,
  release,
  replyInProgress,
  type StartedReply,
  setCitations,
  startContinuation,
  startRegeneration,
  startReply,
} from './replyStore';
import { openEventStream, type ReplyEvent } from './sse';
import { topicNotFound } from './topics';
import { branchTurns, messageOf } from './tree';

const idParams = { type: 'object', properties: { id: { type: 'string', maxLength: 64 } } } as const;
const messageParams = {
  type: 'object',
  properties: { id: { type: 'string', maxLength: 64 }, messageId: { type: 'string', maxLength: 64 } },
} as const;
/** A follower here reads a reply another node writes at each NOTIFY of it, and at least this often. */
const relayFallbackMs = 2000;

interface TopicForReply {
  bot_id: string;
  name: string;
  price: string;
  active: boolean;
  platform: string;
  config: Record<string, unknown>;
  head: string | null;
  can_pay: boolean;
  busy: boolean;
  may_use: boolean;
}

/**
 * Replies: sending a message, regenerating, continuing a reply that ended early, following a reply
 * (from any node, after a reload, from where the client left off) and stopping it. Generation runs
 * apart from the request that started it: a client may leave and come back; a reply nobody follows
 * for `replyUnattendedMs` is stopped.
 */
export const repliesPlugin: FastifyPluginAsync = async (app) => {
  const providers = app.botProviders;
  const live = app.liveReplies;
  const owner = (request: FastifyRequest) => ({ tenant: request.auth.tenant, userId: request.auth.userId });

  // Replies cut off by a crash: the embedded database has one process, so at start-up every reply
  // still streaming lost its writer; on PostgreSQL other nodes may be writing theirs, so only
  // expired leases count, then and from now on.
  const cutOff = await interruptOrphans(app.db, !app.config.databaseUrl);
  if (cutOff) app.log.warn({ replies: cutOff }, 'replies cut off by a restart marked interrupted');
  repeat(app, (leaseSeconds * 1000) / 2, 'marking cut-off replies', () => interruptOrphans(app.db));
  // Ends what this node writes when the server closes: stopped replies are kept, nothing is charged.
  app.addHook('onClose', () => live.stopAll());

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

  app.addHook('preHandler', app.authenticate);

  /** The topic (the user's own, else 404), its bot and whether a reply can start: one query. */
  async function topicForReply(request: FastifyRequest, topicId: string) {
    const { rows } = await app.db.query<TopicForReply>(
      `select b.id as bot_id, b.name, b.price, b.active, b.platform, b.config, t.head,
              u.balance - u.reserved >= b.price as can_pay,
              exists (select 1 from messages m where m.topic_id = t.id and m.status = 'streaming') as busy,
              ${mayUseBot('b.id', 'u.id')} as may_use
       from topics t join bots b on b.id = t.bot_id join users u on u.id = t.user_id
       where t.id = $1 and t.tenant = $2 and t.user_id = $3`,
      [topicId, request.auth.tenant, request.auth.userId],
    );
    const topic = rows[0];
    if (!topic) throw topicNotFound();
    // A bot limited to groups the user is not in (any more): refused before anything is reserved.
    if (!topic.may_use) throw botNotForYou(topic.name);
    if (!live.accepting) {
      throw new ApiError(
        503,
        'This server is restarting. Send your message again in a moment.',
        'SHUTTING_DOWN',
      );
    }
    const provider = providers[topic.platform];
    if (!provider || !canRun(app.config, topic))
      throw new ApiError(409, 'This bot is not available right now.', 'BOT_INACTIVE');
    if (!topic.can_pay) throw insufficientBalance();
    if (topic.busy) throw replyInProgress();
    return { ...topic, provider, price: Number(topic.price) };
  }

  /**
   * Starts generating apart from the request, then follows the reply on this response. A reply
   * continued (`sofar`: its text and tool steps) goes on after them: its first event is sent after
   * the text the client already shows.
   */
  function run(
    request: FastifyRequest,
    reply: FastifyReply,
    topic: Awaited<ReturnType<typeof topicForReply>>,
    turns: {
      history: Turn[];
      text: string;
      attachments: Attachment[];
      knowledge?: Knowledge;
      tools: BotTools;
    },
    started: StartedReply,
    sofar?: { text: string; steps: Step[] },
  ) {
    const topicId = (request.params as { id: string }).id;
    const writing = live.start(topicId, started.botMessageId, sofar);
    writing.finished = generateReply(
      {
        db: app.db,
        owner: owner(request),
        topicId,
        bot: { id: topic.bot_id, name: topic.name, config: topic.config },
        history: turns.history,
        text: turns.text,
        attachments: turns.attachments,
        knowledge: turns.knowledge,
        tools: turns.tools,
        continuing: sofar?.text,
        provider: topic.provider,
        log: request.log,
      },
      writing,
      started,
    ).finally(() => live.finish(writing));
    return followLive(reply, writing, sofar?.text.length ?? 0, { event: 'message', data: started });
  }

  /**
   * The bot's context for this reply (`replyContext`), its citations stored with the reply. Should
   * this fail, the reply just started is released (nothing charged) rather than left streaming.
   */
  async function prepare(
    request: FastifyRequest,
    topic: { platform: string; config: Record<string, unknown> },
    conversation: { history: Turn[]; text: string; messageId: string },
    started: StartedReply,
    carriesFiles: boolean,
  ) {
    const who = owner(request);
    try {
      const context = await replyContext(app, who, topic, conversation, carriesFiles);
      if (context.knowledge?.passages.length)
        await setCitations(app.db, started.botMessageId, context.knowledge.passages.map(citationOf));
      return context;
    } catch (error) {
      await release(app.db, who, { messageId: started.botMessageId, text: null, status: 'failed' });
      throw error;
    }
  }

  app.post<{ Params: { id: string }; Body: { text: string; parent?: string | null; files?: string[] } }>(
    '/api/v1/topic/:id/message',
    {
      schema: {
        params: idParams,
        body: {
          type: 'object',
          required: ['text'],
          additionalProperties: false,
          properties: {
            text: { type: 'string', minLength: 1, maxLength: 8000 },
            parent: { type: ['string', 'null'], maxLength: 64 },
            files: {
              type: 'array',
              maxItems: 10,
              items: { type: 'string', minLength: 1, maxLength: 64 },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const topicId = request.params.id;
      const text = request.body.text.trim();
      if (!text) throw new ApiError(400, 'Please fill in text.', 'INVALID_INPUT', 'text');
      const topic = await topicForReply(request, topicId);
      const files = await filesToAttach(app.db, owner(request), request.body.files ?? []);
      // Refused before anything is reserved: a bot without vision is never sent an image.
      if (files.some((file) => isImage(file.type)) && !reachOf(topic.config).vision) {
        throw new ApiError(
          422,
          `${topic.name} cannot see images. Remove the image, or ask a bot that can see images.`,
          'VISION_UNSUPPORTED',
          'files',
        );
      }
      // Omitted: answer the branch on screen. null: a new first message. A reply: edit and resend
      // the message that followed it, on a new branch (the old one is kept).
      let parent = topic.head;
      if (request.body.parent !== undefined) {
        parent = request.body.parent;
        if (parent !== null && (await messageOf(app.db, topicId, parent)).role !== 'bot') {
          throw new ApiError(
            400,
            'Only your own messages can be edited: send the new text after the reply before it.',
            'NOT_EDITABLE',
            'parent',
          );
        }
      }
      // Reserved before the first token: a reply that cannot be paid never starts.
      const { history, historyCarriesFiles, ...started } = await startReply(app.db, owner(request), {
        topicId,
        parent,
        text,
        price: topic.price,
        files,
      });
      const turns = await prepare(
        request,
        topic,
        { history, text, messageId: started.userMessageId },
        started,
        files.length > 0 || historyCarriesFiles,
      );
      return run(request, reply, topic, turns, started);
    },
  );

  app.post<{ Params: { id: string; messageId: string } }>(
    '/api/v1/topic/:id/message/:messageId/regenerate',
    { schema: { params: messageParams } },
    async (request, reply) => {
      const topicId = request.params.id;
      const topic = await topicForReply(request, topicId);
      // A reply gets a new sibling; a message of the user's (whose reply failed) gets a reply.
      const message = await messageOf(app.db, topicId, request.params.messageId);
      const answered = message.role === 'bot' ? message.parent : message.id;
      if (!answered) throw new ApiError(400, 'This reply answers no message.', 'NOT_REGENERABLE');
      const branch = await branchTurns(app.db, topicId, answered);
      const asked = branch.pop();
      if (asked?.role !== 'user')
        throw new ApiError(400, 'This reply answers no message.', 'NOT_REGENERABLE');
      const started = await startRegeneration(app.db, owner(request), {
        topicId,
        parent: answered,
        price: topic.price,
      });
      const turns = await prepare(
        request,
        topic,
        { history: branch, text: asked.text, messageId: answered },
        started,
        true,
      );
      return run(request, reply, topic, turns, started);
    },
  );

  app.post<{ Params: { id: string; messageId: string } }>(
    '/api/v1/topic/:id/message/:messageId/continue',
    { schema: { params: messageParams } },
    async (request, reply) => {
      const topicId = request.params.id;
      const topic = await topicForReply(request, topicId);
      const message = await messageOf(app.db, topicId, request.params.messageId);
      if (message.role !== 'bot' || !message.parent) throw notContinuable();
      // The reply goes on answering the same message, with the same conversation before it.
      const branch = await branchTurns(app.db, topicId, message.parent);
      const asked = branch.pop();
      if (asked?.role !== 'user') throw notContinuable();
      // Its tool steps so far (none are written while it is not being written).
      const steps = await stepsOfMessage(app.db, message.id);
      const { text, ...started } = await startContinuation(app.db, owner(request), {
        topicId,
        messageId: message.id,
        price: topic.price,
      });
      const turns = await prepare(
        request,
        topic,
        { history: branch, text: asked.text, messageId: message.parent },
        started,
        true,
      );
      return run(request, reply, topic, turns, started, { text, steps });
    },
  );

  app.get<{ Params: { id: string }; Headers: { 'last-event-id'?: string } }>(
    '/api/v1/topic/:id/stream',
    { schema: { params: idParams } },
    async (request, reply) => {
      const topicId = request.params.id;
      const streaming = await streamingReply(request, topicId);
      const offset = Number.parseInt(request.headers['last-event-id'] ?? '0', 10);
      const from = Number.isSafeInteger(offset) && offset > 0 ? offset : 0;
      const here = live.get(topicId);
      if (here && !here.ended) return followLive(reply, here, from);
      if (!streaming) return reply.code(204).send();
      return followStored(request, reply, streaming, from);
    },
  );

  app.post<{ Params: { id: string } }>(
    '/api/v1/topic/:id/stop',
    { schema: { params: idParams } },
    async (request) => {
      const topicId = request.params.id;
      const streaming = await streamingReply(request, topicId);
      const here = live.get(topicId);
      if (here && !here.ended) {
        here.stop();
        return { stopped: true };
      }
      // Written by another node: stopped here as far as its last checkpoint; that node notices at
      // its next checkpoint and stops generating.
      if (!streaming) return { stopped: false };
      const kept = await release(app.db, owner(request), {
        messageId: streaming,
        text: null,
        status: 'stopped',
      });
      return { stopped: true, kept };
    },
  );

  /** The id of the reply streaming in the user's topic, or null; 404 for anyone else's topic. */
  async function streamingReply(request: FastifyRequest, topicId: string): Promise<string | null> {
    const { rows } = await app.db.query<{ id: string | null }>(
      `select (select m.id from messages m where m.topic_id = t.id and m.status = 'streaming') as id
       from topics t where t.id = $1 and t.tenant = $2 and t.user_id = $3`,
      [topicId, request.auth.tenant, request.auth.userId],
    );
    if (!rows[0]) throw topicNotFound();
    return rows[0].id;
  }

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
  async function followStored(
    request: FastifyRequest,
    reply: FastifyReply,
    messageId: string,
    offset: number,
  ) {
    const stream = openEventStream(reply);
    const gone = new AbortController();
    stream.raw.on('close', () => gone.abort());
    let sent = offset;
    // Each step as last sent: a step is sent again when it changed.
    const stepsSent = new Map<string, string>();
    while (!gone.signal.aborted) {
      // Armed before the read, so a change during it is not missed.
      const changed = nextChange(messageId, gone.signal);
      const { rows } = await app.db.query<{
        text: string;
        status: string;
        cost: string | null;
        balance: string;
        citations: Citation[] | null;
        steps: Step[] | null;
      }>(
        `select m.text, m.status, m.cost, m.citations, u.balance, ${stepsJson()} as steps
         from messages m join users u on u.id = $2 where m.id = $1`,
        [messageId, request.auth.userId],
      );
      const row = rows[0];
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
};

/** The last event of a reply read from the database. */
function storedEnding(
  botMessageId: string,
  row:
    | {
        status: string;
        cost: string | null;
        balance: string;
        citations: Citation[] | null;
        steps: Step[] | null;
      }
    | undefined,
): ReplyEvent {
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
      },
    };
  const endings: Record<string, { error: string; code: string }> = {
    stopped: { error: 'The reply was stopped.', code: 'STOPPED' },
    interrupted: { error: 'The reply was interrupted. Please try again.', code: 'INTERRUPTED' },
    failed: { error: 'The reply failed. Please try again.', code: 'PROVIDER_ERROR' },
  };
  return { event: 'error', data: { ...(endings[row.status] ?? endings.failed), botMessageId } };
}
