import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyRequest } from 'fastify';
import { audit } from '../../audit/store';
import { ApiError } from '../../errors';
import { modelsOfBot, pickModel } from '../../models/store';
import { prepareReply, shownFailure, unkept } from '../../replies/pipeline';
import { openEventStream } from '../../replies/sse';
import { cleanName, idParams, objectOf, uniqueViolation } from '../../schemas';
import type { Step } from '../../tools/steps';
import { checkGroups } from '../groups/store';
import { checkModels, setBotModels } from '../models/store';
import {
  type AdminBot,
  type BotInput,
  checkCategories,
  configOf,
  engines,
  insertBot,
  listBots,
  readBot,
  retireBot,
  setBotCategories,
  setBotGroups,
  setRetired,
  updateBot,
} from './store';

const botFields = {
  name: { type: 'string', minLength: 1, maxLength: 80 },
  description: { type: 'string', maxLength: 1000 },
  platform: { type: 'string', enum: ['builtin', 'openai', 'image'] },
  engine: { type: ['string', 'null'], enum: [...engines, null] },
  provider: { type: ['string', 'null'], maxLength: 64 },
  model: { type: ['string', 'null'], maxLength: 200 },
  systemPrompt: { type: ['string', 'null'], maxLength: 8000 },
  temperature: { type: ['number', 'null'], minimum: 0, maximum: 2 },
  vision: { type: 'boolean' },
  contextTokens: { type: 'integer', minimum: 256, maximum: 10_000_000 },
  knowledge: { type: 'array', maxItems: 20, items: { type: 'string', minLength: 1, maxLength: 64 } },
  tools: { type: 'array', maxItems: 100, items: { type: 'string', minLength: 1, maxLength: 64 } },
  askFirst: { type: 'array', maxItems: 100, items: { type: 'string', minLength: 1, maxLength: 64 } },
  price: { type: 'number', minimum: 0, maximum: 1000 },
  categories: { type: 'array', maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 64 } },
  groups: { type: 'array', maxItems: 100, items: { type: 'string', minLength: 1, maxLength: 64 } },
  models: { type: 'array', maxItems: 20, items: { type: 'string', minLength: 1, maxLength: 64 } },
  userParameters: { type: 'boolean' },
  active: { type: 'boolean' },
  position: { type: 'integer', minimum: 0, maximum: 1_000_000 },
  // A member's bot: retired, or given back (the one change an administrator makes to one).
  retired: { type: 'boolean' },
} as const;
const namesSchema = { type: 'array', items: { type: 'string' } } as const;
/** A bot as the editor shows it: the config's keys as fields, those not set left out. */
const botSchema = objectOf(
  {
    _id: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    platform: { type: 'string', enum: ['builtin', 'openai', 'image'] },
    engine: { type: 'string' },
    provider: { type: 'string' },
    model: { type: 'string' },
    systemPrompt: { type: 'string' },
    temperature: { type: 'number' },
    vision: { type: 'boolean' },
    contextTokens: { type: 'integer' },
    knowledge: namesSchema,
    tools: namesSchema,
    askFirst: namesSchema,
    price: { type: 'number' },
    categories: {
      type: 'array',
      items: objectOf({ _id: { type: 'string' }, name: { type: 'string' } }, ['_id', 'name']),
    },
    groups: namesSchema,
    models: { ...namesSchema, description: 'catalogue models (ids), the first the default' },
    userParameters: { type: 'boolean', description: 'members may set temperature and reply length' },
    active: { type: 'boolean' },
    position: { type: 'integer' },
    owner: objectOf({ _id: { type: 'string' }, name: { type: 'string' } }, ['_id', 'name']),
    visibility: { type: 'string', enum: ['private', 'groups', 'organization'] },
    retired: { type: 'boolean', description: 'a member’s bot an administrator retired' },
  },
  [
    '_id',
    'name',
    'description',
    'platform',
    'vision',
    'contextTokens',
    'knowledge',
    'tools',
    'askFirst',
    'price',
    'categories',
    'groups',
    'models',
    'userParameters',
    'active',
    'position',
    'retired',
  ],
);
const nameTaken = () => new ApiError(409, 'A bot with this name exists already.', 'NAME_TAKEN', 'name');
/** A write refused by the database: the name taken, or a model removed meanwhile. */
const writeFailure = (error: unknown) => {
  if (uniqueViolation(error)) return nameTaken();
  if ((error as { code?: string }).code === '23503')
    return new ApiError(404, 'Model not found', 'NOT_FOUND', 'models');
  return error;
};

/** What the audit log keeps of a bot: every field the editor shows. */
const snapshot = ({ _id, ...bot }: AdminBot) => ({ ...bot, categories: bot.categories.map((c) => c._id) });

/**
 * The organization's bots in the admin area: list (retired ones too), create, edit, retire (never
 * deleted: old conversations keep them), and "Try it", which runs the bot being edited without
 * charging anyone or storing a conversation. Every write forgets `GET /api/v1/bot`'s list.
 */
export const botsAdminPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  /**
   * A bot as answered: a model bot that names no model (the seeded ones) shows the one it runs, the
   * server's OPENAI_MODEL, so its form saves as it is. Stored as it was: it follows the setting until
   * an admin saves a model of its own.
   */
  const shown = (bot: AdminBot): AdminBot =>
    bot.platform === 'openai' && !bot.model ? { ...bot, model: app.config.openai.model } : bot;

  /** The columns a create or an update writes, from the form and its checked settings. */
  const written = <Position extends number | null>(
    input: BotInput,
    config: Record<string, unknown>,
    position: Position,
  ) => ({
    name: input.name,
    description: input.description.trim(),
    active: input.active,
    platform: input.platform,
    price: input.price,
    config,
    position,
    userParameters: input.userParameters ?? false,
  });

  /** The catalogue models a bot offers, checked: the organization's, and only for a model bot. */
  const offered = async (tenant: string, platform: BotInput['platform'], models: string[]) => {
    if (models.length && platform !== 'openai')
      throw new ApiError(400, 'Only a model bot offers catalogue models.', 'INVALID_INPUT', 'models');
    return checkModels(app.db, tenant, models);
  };

  /**
   * A member's bot is its maker's to change: an administrator retires it or gives it back, nothing
   * else; an admin bot has no such switch (it is retired with DELETE).
   */
  async function retirement(
    request: FastifyRequest,
    before: AdminBot,
    retired: boolean | undefined,
    changes: Record<string, unknown>,
  ) {
    const field = Object.keys(changes)[0];
    if (!before.owner)
      throw new ApiError(400, 'Only a member’s bot is retired this way.', 'INVALID_INPUT', 'retired');
    if (field || retired === undefined)
      throw new ApiError(
        400,
        'A member’s bot is theirs to change: an administrator can only retire it, or undo that.',
        'INVALID_INPUT',
        field ?? 'retired',
      );
    await app.db.transaction(async (tx) => {
      await setRetired(tx, request.tenant, before._id, retired);
      await audit(tx, request, {
        action: retired ? 'bot.retire' : 'bot.unretire',
        target: before._id,
        before: { retired: before.retired },
        after: { retired },
      });
    });
    await app.botCatalogue.forget(request.tenant);
    return shown((await readBot(app.db, request.tenant, before._id)).bot);
  }

  app.get('/bot', { schema: { response: { 200: { type: 'array', items: botSchema } } } }, async (request) =>
    (await listBots(app.db, request.tenant)).map(shown),
  );

  app.post(
    '/bot',
    {
      schema: {
        body: objectOf(botFields, ['name', 'description', 'platform', 'price', 'categories', 'active']),
        response: { 201: botSchema },
      },
    },
    async (request, reply) => {
      const { tenant } = request;
      const input = { ...request.body, name: cleanName(request.body.name) };
      const config = await configOf(app.db, tenant, input);
      const categories = await checkCategories(app.db, tenant, input.categories);
      const groups = await checkGroups(app.db, tenant, input.groups ?? []);
      const models = await offered(tenant, input.platform, input.models ?? []);
      const id = await app.db
        .transaction(async (tx) => {
          const id = await insertBot(tx, tenant, written(input, config, input.position ?? null));
          await setBotCategories(tx, id, categories);
          await setBotGroups(tx, id, groups);
          await setBotModels(tx, id, models);
          const { bot } = await readBot(tx, tenant, id);
          await audit(tx, request, {
            action: 'bot.create',
            target: bot._id,
            before: null,
            after: snapshot(bot),
          });
          return bot._id;
        })
        .catch((error) => {
          throw writeFailure(error);
        });
      await app.botCatalogue.forget(tenant);
      return reply.code(201).send(shown((await readBot(app.db, tenant, id)).bot));
    },
  );

  app.patch(
    '/bot/:id',
    { schema: { params: idParams, body: objectOf(botFields, [], 1), response: { 200: botSchema } } },
    async (request) => {
      const { tenant } = request;
      const { bot: before, row } = await readBot(app.db, tenant, request.params.id);
      const { retired, ...changes } = request.body;
      if (before.owner || retired !== undefined) return retirement(request, before, retired, changes);
      const platformChanged = changes.platform !== undefined && changes.platform !== before.platform;
      // Switching platform starts the platform's settings afresh.
      const current: BotInput = {
        name: before.name,
        description: before.description,
        platform: before.platform,
        price: before.price,
        active: before.active,
        position: before.position,
        userParameters: before.userParameters,
        categories: before.categories.map((category) => category._id),
        ...(platformChanged
          ? {}
          : {
              engine: before.engine,
              provider: before.provider,
              model: before.model,
              systemPrompt: before.systemPrompt,
              temperature: before.temperature,
              vision: before.vision,
              contextTokens: before.contextTokens,
              knowledge: before.knowledge,
              tools: before.tools,
              // New tools without a word on askFirst: the tools kept keep asking first.
              askFirst: before.askFirst.filter((name) => (changes.tools ?? before.tools).includes(name)),
            }),
      };
      const input: BotInput = { ...current, ...changes };
      if (changes.name !== undefined) input.name = cleanName(changes.name);
      const config = await configOf(app.db, tenant, input, row.config);
      const categories =
        changes.categories === undefined ? null : await checkCategories(app.db, tenant, changes.categories);
      const groups = changes.groups === undefined ? null : await checkGroups(app.db, tenant, changes.groups);
      const models = await offered(tenant, input.platform, changes.models ?? before.models);
      await app.db
        .transaction(async (tx) => {
          await updateBot(tx, tenant, before._id, written(input, config, input.position ?? before.position));
          if (categories) await setBotCategories(tx, before._id, categories);
          if (groups) await setBotGroups(tx, before._id, groups);
          if (changes.models) await setBotModels(tx, before._id, models);
          const { bot: after } = await readBot(tx, tenant, before._id);
          await audit(tx, request, {
            action: 'bot.update',
            target: before._id,
            before: snapshot(before),
            after: snapshot(after),
          });
        })
        .catch((error) => {
          throw writeFailure(error);
        });
      await app.botCatalogue.forget(tenant);
      return shown((await readBot(app.db, tenant, before._id)).bot);
    },
  );

  app.delete('/bot/:id', { schema: { params: idParams, response: { 200: botSchema } } }, async (request) => {
    const { tenant } = request;
    const { bot: before } = await readBot(app.db, tenant, request.params.id);
    await app.db.transaction(async (tx) => {
      await retireBot(tx, tenant, before._id);
      await audit(tx, request, {
        action: 'bot.retire',
        target: before._id,
        ...(before.owner
          ? { before: { retired: before.retired }, after: { retired: true } }
          : { before: { active: before.active }, after: { active: false } }),
      });
    });
    await app.botCatalogue.forget(tenant);
    return shown((await readBot(app.db, tenant, before._id)).bot);
  });

  // Answers a stream of events (text/event-stream), not JSON: no response schema.
  app.post(
    '/bot/:id/try',
    {
      schema: {
        params: idParams,
        body: objectOf(
          {
            messages: {
              type: 'array',
              minItems: 1,
              maxItems: 50,
              items: objectOf(
                {
                  role: { type: 'string', enum: ['user', 'bot'] },
                  text: { type: 'string', minLength: 1, maxLength: 8000 },
                },
                ['role', 'text'],
              ),
            },
          },
          ['messages'],
        ),
      },
    },
    async (request, reply) => {
      const { row } = await readBot(app.db, request.tenant, request.params.id);
      const turns = request.body.messages;
      const last = turns.at(-1);
      if (last?.role !== 'user' || !last.text.trim())
        throw new ApiError(400, 'The last message must be yours.', 'INVALID_INPUT', 'messages');
      const provider = app.botProviders[row.platform];
      if (!provider) throw new ApiError(409, 'This bot is not set up correctly.', 'BOT_MISCONFIGURED');
      // What a chat gives the bot — its knowledge bases' passages, its tools — as the admin trying it,
      // through the reply pipeline with nothing kept and nothing charged.
      // On its default catalogue model, as a new conversation would be.
      const model = pickModel(await modelsOfBot(app.db, row.id), []);
      const prepared = await prepareReply(app, {
        owner: { tenant: request.tenant, userId: request.auth.userId },
        bot: row,
        model,
        provider,
        conversation: { history: turns.slice(0, -1), text: last.text },
        steps: null,
        approvals: false,
        refusal: 'This tool asks the user first: try it in a chat, where you can allow it.',
        record: unkept,
        log: request.log,
      });

      // The same events as a chat reply.
      const stream = openEventStream(reply);
      const stop = new AbortController();
      stream.raw.on('close', () => stop.abort());
      const steps = new Map<string, Step>();
      let text = '';
      const sink = {
        token: (piece: string) => {
          text += piece;
          stream.send({ event: 'token', id: text.length, data: { text: piece } });
        },
        step: (step: Step) => {
          steps.set(step.callId, step);
          stream.send({ event: 'step', data: { step } });
        },
      };
      const outcome = await prepared.run(sink, stop.signal);
      if (outcome.end === 'complete')
        stream.send({
          event: 'done',
          data: {
            cost: 0,
            price: Number(model ? model.price : row.price),
            ...(outcome.citations.length ? { citations: outcome.citations } : {}),
            ...(steps.size ? { steps: [...steps.values()] } : {}),
          },
        });
      else if (outcome.end === 'failed') {
        const failure = shownFailure(outcome.error);
        stream.send({ event: 'error', data: { error: failure.message, code: failure.code } });
      } else stream.send({ event: 'error', data: { error: 'The reply was stopped.', code: 'STOPPED' } });
      stream.end();
    },
  );
};
