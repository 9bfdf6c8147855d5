import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import { releaseOrphanImages } from '../billing/images';
import { ApiError } from '../errors';
import { filesToAttach } from '../files/store';
import type { Owner } from '../owner';
import { repeat } from '../repeat';
import { leaseSeconds } from '../replies/lease';
import { stepsOfMessage } from '../tools/steps';
import { replyRelay } from './relay';
import { refuseUnseen, refuseWebSearch, replyableTopic, startLiveReply } from './reply';
import {
  interruptOrphans,
  notContinuable,
  release,
  startContinuation,
  startRegeneration,
  startReply,
  streamingReplyOf,
} from './replyStore';
import { topicNotFound } from './topics';
import { messageOf, parentFor, questionAt } from './tree';

const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', maxLength: 64 } },
} as const;
const messageParams = {
  type: 'object',
  required: ['id', 'messageId'],
  properties: { id: { type: 'string', maxLength: 64 }, messageId: { type: 'string', maxLength: 64 } },
} as const;
const messageBody = {
  type: 'object',
  required: ['text'],
  additionalProperties: false,
  properties: {
    text: { type: 'string', minLength: 1, maxLength: 8000 },
    parent: { type: ['string', 'null'], maxLength: 64 },
    files: { type: 'array', maxItems: 10, items: { type: 'string', minLength: 1, maxLength: 64 } },
    // "Search the web" for this message: `web_search` offered to a model bot without it.
    webSearch: { type: 'boolean' },
  },
} as const;
const stopped = {
  type: 'object',
  additionalProperties: false,
  required: ['stopped'],
  properties: { stopped: { type: 'boolean' }, kept: { type: 'boolean' } },
} as const;

/**
 * Replies: sending a message, regenerating, continuing a reply that ended early, following a reply
 * (from any node, after a reload, from where the client left off) and stopping it. Generation runs
 * apart from the request that started it (`startLiveReply`: the reply pipeline into a live reply): a
 * client may leave and come back; a reply nobody follows for `replyUnattendedMs` is stopped. The
 * message, regenerate, continue and stream routes answer server-sent events.
 */
export const repliesPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  const live = app.liveReplies;
  const ownerOf = (request: { auth: Owner }): Owner => ({
    tenant: request.auth.tenant,
    userId: request.auth.userId,
  });

  // Replies cut off by a crash: the embedded database has one process, so at start-up every reply
  // still streaming lost its writer; on PostgreSQL other nodes may be writing theirs, so only
  // expired leases count, then and from now on.
  const cutOff = await interruptOrphans(app.db, !app.config.databaseUrl);
  if (cutOff) app.log.warn({ replies: cutOff }, 'replies cut off by a restart marked interrupted');
  // Then the holds of images asked by replies that ended meanwhile (cut off, or stopped while drawing).
  repeat(app, (leaseSeconds * 1000) / 2, 'marking cut-off replies', async () => {
    await interruptOrphans(
      app.db,
      false,
      live.all().map((reply) => reply.botMessageId),
    );
    await releaseOrphanImages(app.db);
  });
  // Ends what this node writes when the server closes: stopped replies are kept, nothing is charged.
  app.addHook('onClose', () => live.stopAll());
  const relay = await replyRelay(app);

  app.addHook('preHandler', app.authenticate);

  /** Starts the reply apart from the request, then follows it on this response from after `sofar`. */
  async function answer(
    request: { auth: Owner; log: FastifyBaseLogger },
    reply: FastifyReply,
    started: Parameters<typeof startLiveReply>[2],
  ) {
    const writing = await startLiveReply(app, { owner: ownerOf(request), log: request.log }, started);
    const ids = { userMessageId: started.started.userMessageId, botMessageId: started.started.botMessageId };
    return relay.followLive(reply, writing, started.sofar?.text.length ?? 0, { event: 'message', data: ids });
  }

  app.post(
    '/api/v1/topic/:id/message',
    { schema: { params: idParams, body: messageBody } },
    async (request, reply) => {
      const topicId = request.params.id;
      const text = request.body.text.trim();
      if (!text) throw new ApiError(400, 'Please fill in text.', 'INVALID_INPUT', 'text');
      const owner = ownerOf(request);
      const topic = await replyableTopic(app, owner, topicId);
      const files = await filesToAttach(app.db, owner, request.body.files ?? []);
      refuseUnseen(topic, files);
      const webSearch = request.body.webSearch === true;
      if (webSearch) await refuseWebSearch(app, owner, topic);
      const parent = await parentFor(app.db, topicId, topic.head, request.body.parent);
      // Reserved before the first token: a reply that cannot be paid never starts.
      const { history, historyCarriesFiles, titled, ...started } = await startReply(app.db, owner, {
        topicId,
        parent,
        text,
        price: topic.price,
        model: topic.model?.id ?? null,
        files,
        webSearch,
      });
      return answer(request, reply, {
        topicId,
        topic,
        started,
        conversation: { history, text, messageId: started.userMessageId, webSearch },
        carriesFiles: files.length > 0 || historyCarriesFiles,
        names: titled,
      });
    },
  );

  // `{ model }`: written by another of the bot's models, kept as a branch like any regeneration; the
  // conversation's own choice stays as it was.
  app.post(
    '/api/v1/topic/:id/message/:messageId/regenerate',
    {
      schema: {
        params: messageParams,
        body: {
          type: ['object', 'null'],
          additionalProperties: false,
          properties: { model: { type: ['string', 'null'], minLength: 1, maxLength: 64 } },
        },
      },
    },
    async (request, reply) => {
      const topicId = request.params.id;
      const topic = await replyableTopic(app, ownerOf(request), topicId, { wanted: request.body?.model });
      // A reply gets a new sibling; a message of the user's (whose reply failed) gets a reply.
      const message = await messageOf(app.db, topicId, request.params.messageId);
      const answered = message.role === 'bot' ? message.parent : message.id;
      if (!answered) throw new ApiError(400, 'This reply answers no message.', 'NOT_REGENERABLE');
      const question = await questionAt(app.db, topicId, answered);
      if (!question) throw new ApiError(400, 'This reply answers no message.', 'NOT_REGENERABLE');
      const started = await startRegeneration(app.db, ownerOf(request), {
        topicId,
        parent: answered,
        price: topic.price,
        model: topic.model?.id ?? null,
      });
      return answer(request, reply, {
        topicId,
        topic,
        started,
        conversation: { ...question, messageId: answered },
        carriesFiles: true,
      });
    },
  );

  app.post(
    '/api/v1/topic/:id/message/:messageId/continue',
    { schema: { params: messageParams } },
    async (request, reply) => {
      const topicId = request.params.id;
      if ((await streamingReplyOf(app.db, ownerOf(request), topicId)) === undefined) throw topicNotFound();
      const message = await messageOf(app.db, topicId, request.params.messageId);
      if (message.role !== 'bot' || !message.parent) throw notContinuable();
      // Continued by the model that wrote it, while the bot still offers it.
      const topic = await replyableTopic(app, ownerOf(request), topicId, { preferred: message.model_id });
      // The reply goes on answering the same message, with the same conversation before it.
      const question = await questionAt(app.db, topicId, message.parent);
      if (!question) throw notContinuable();
      // Its tool steps so far (none are written while it is not being written).
      const steps = await stepsOfMessage(app.db, message.id);
      const { text, pages, ...started } = await startContinuation(app.db, ownerOf(request), {
        topicId,
        messageId: message.id,
        price: topic.price,
        model: topic.model?.id ?? null,
      });
      return answer(request, reply, {
        topicId,
        topic,
        started,
        conversation: { ...question, messageId: message.parent },
        carriesFiles: true,
        sofar: { text, steps, pages },
      });
    },
  );

  app.get(
    '/api/v1/topic/:id/stream',
    {
      schema: {
        params: idParams,
        headers: { type: 'object', properties: { 'last-event-id': { type: 'string' } } },
      },
    },
    async (request, reply) => {
      const topicId = request.params.id;
      const streaming = await streamingReplyOf(app.db, ownerOf(request), topicId);
      if (streaming === undefined) throw topicNotFound();
      const offset = Number.parseInt(request.headers['last-event-id'] ?? '0', 10);
      const from = Number.isSafeInteger(offset) && offset > 0 ? offset : 0;
      const here = live.get(topicId);
      if (here && !here.ended) return relay.followLive(reply, here, from);
      if (!streaming) return reply.code(204).send();
      return relay.followStored(reply, request.auth.userId, streaming, from);
    },
  );

  app.post(
    '/api/v1/topic/:id/stop',
    { schema: { params: idParams, response: { 200: stopped } } },
    async (request) => {
      const topicId = request.params.id;
      const streaming = await streamingReplyOf(app.db, ownerOf(request), topicId);
      if (streaming === undefined) throw topicNotFound();
      const here = live.get(topicId);
      if (here && !here.ended) {
        here.stop();
        return { stopped: true };
      }
      // Written by another node: stopped here as far as its last checkpoint; that node notices at
      // its next checkpoint and stops generating.
      if (!streaming) return { stopped: false };
      const kept = await release(app.db, ownerOf(request), {
        messageId: streaming,
        text: null,
        status: 'stopped',
      });
      return { stopped: true, kept };
    },
  );
};
