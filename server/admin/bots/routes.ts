import type { FastifyPluginAsync } from 'fastify';
import { audit } from '../../audit/store';
import type { Db } from '../../db/database';
import { ApiError } from '../../errors';
import { prepareReply, shownFailure, unkept } from '../../replies/pipeline';
import { openEventStream } from '../../replies/sse';
import { cleanName, idParams, objectOf, uniqueViolation } from '../../schemas';
import type { Step } from '../../tools/steps';
import { checkGroups } from '../groups/store';
import { type AdminBot, type BotInput, checkCategories, configOf, engines, listBots, readBot } from './store';

const botFields = {
  name: { type: 'string', minLength: 1, maxLength: 80 },
  description: { type: 'string', maxLength: 1000 },
  platform: { type: 'string', enum: ['builtin', 'openai'] },
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
  active: { type: 'boolean' },
  position: { type: 'integer', minimum: 0, maximum: 1_000_000 },
};
const nameTaken = () => new ApiError(409, 'A bot with this name exists already.', 'NAME_TAKEN', 'name');

/** What the audit log keeps of a bot: every field the editor shows. */
const snapshot = ({ _id, ...bot }: AdminBot) => ({ ...bot, categories: bot.categories.map((c) => c._id) });

/**
 * The organization's bots in the admin area: list (retired ones too), create, edit, retire (never
 * deleted: old conversations keep them), and "Try it", which runs the bot being edited without
 * charging anyone or storing a conversation. Every write forgets `GET /api/v1/bot`'s list.
 */
export const botsAdminPlugin: FastifyPluginAsync = async (app) => {
  /**
   * A bot as answered: a model bot that names no model (the seeded ones) shows the one it runs, the
   * server's OPENAI_MODEL, so its form saves as it is. Stored as it was: it follows the setting until
   * an admin saves a model of its own.
   */
  const shown = (bot: AdminBot): AdminBot =>
    bot.platform === 'openai' && !bot.model ? { ...bot, model: app.config.openai.model } : bot;

  app.get('/bot', async (request) => (await listBots(app.db, request.tenant)).map(shown));

  async function writeCategories(tx: Db, botId: string, categories: string[]) {
    await tx.query('delete from bot_categories where bot_id = $1', [botId]);
    if (categories.length)
      await tx.query('insert into bot_categories (bot_id, category_id) select $1, unnest($2::text[])', [
        botId,
        categories,
      ]);
  }

  /** Who may use the bot: these groups' members, or everyone when none. */
  async function writeGroups(tx: Db, botId: string, groups: string[]) {
    await tx.query('delete from bot_groups where bot_id = $1', [botId]);
    if (groups.length)
      await tx.query('insert into bot_groups (bot_id, group_id) select $1, unnest($2::text[])', [
        botId,
        groups,
      ]);
  }

  app.post<{ Body: BotInput }>(
    '/bot',
    {
      schema: {
        body: objectOf(botFields, ['name', 'description', 'platform', 'price', 'categories', 'active']),
      },
    },
    async (request, reply) => {
      const { tenant } = request;
      const input = { ...request.body, name: cleanName(request.body.name) };
      const config = await configOf(app.db, tenant, input);
      const categories = await checkCategories(app.db, tenant, input.categories);
      const groups = await checkGroups(app.db, tenant, input.groups ?? []);
      const id = await app.db
        .transaction(async (tx) => {
          const { rows } = await tx.query<{ id: string }>(
            `insert into bots (tenant, name, description, active, platform, price, config, position)
             values ($1, $2, $3, $4, $5, $6, $7,
                     coalesce($8, (select coalesce(max(position), -1) + 1 from bots where tenant = $1)))
             returning id`,
            [
              tenant,
              input.name,
              input.description.trim(),
              input.active,
              input.platform,
              input.price,
              JSON.stringify(config),
              input.position ?? null,
            ],
          );
          await writeCategories(tx, rows[0].id, categories);
          await writeGroups(tx, rows[0].id, groups);
          const { bot } = await readBot(tx, tenant, rows[0].id);
          await audit(tx, request, {
            action: 'bot.create',
            target: bot._id,
            before: null,
            after: snapshot(bot),
          });
          return bot._id;
        })
        .catch((error) => {
          throw uniqueViolation(error) ? nameTaken() : error;
        });
      await app.botCatalogue.forget(tenant);
      return reply.code(201).send(shown((await readBot(app.db, tenant, id)).bot));
    },
  );

  app.patch<{ Params: { id: string }; Body: Partial<BotInput> }>(
    '/bot/:id',
    { schema: { params: idParams, body: objectOf(botFields, [], 1) } },
    async (request) => {
      const { tenant } = request;
      const { bot: before, row } = await readBot(app.db, tenant, request.params.id);
      const changes = request.body;
      const platformChanged = changes.platform !== undefined && changes.platform !== before.platform;
      // Switching platform starts the platform's settings afresh.
      const current: BotInput = {
        name: before.name,
        description: before.description,
        platform: before.platform,
        price: before.price,
        active: before.active,
        position: before.position,
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
      await app.db
        .transaction(async (tx) => {
          await tx.query(
            `update bots set name = $3, description = $4, active = $5, platform = $6, price = $7, config = $8,
               position = $9 where id = $1 and tenant = $2`,
            [
              before._id,
              tenant,
              input.name,
              input.description.trim(),
              input.active,
              input.platform,
              input.price,
              JSON.stringify(config),
              input.position ?? before.position,
            ],
          );
          if (categories) await writeCategories(tx, before._id, categories);
          if (groups) await writeGroups(tx, before._id, groups);
          const { bot: after } = await readBot(tx, tenant, before._id);
          await audit(tx, request, {
            action: 'bot.update',
            target: before._id,
            before: snapshot(before),
            after: snapshot(after),
          });
        })
        .catch((error) => {
          throw uniqueViolation(error) ? nameTaken() : error;
        });
      await app.botCatalogue.forget(tenant);
      return shown((await readBot(app.db, tenant, before._id)).bot);
    },
  );

  app.delete<{ Params: { id: string } }>('/bot/:id', { schema: { params: idParams } }, async (request) => {
    const { tenant } = request;
    const { bot: before } = await readBot(app.db, tenant, request.params.id);
    await app.db.transaction(async (tx) => {
      await tx.query('update bots set active = false where id = $1 and tenant = $2', [before._id, tenant]);
      await audit(tx, request, {
        action: 'bot.retire',
        target: before._id,
        before: { active: before.active },
        after: { active: false },
      });
    });
    await app.botCatalogue.forget(tenant);
    return shown((await readBot(app.db, tenant, before._id)).bot);
  });

  app.post<{ Params: { id: string }; Body: { messages: { role: 'user' | 'bot'; text: string }[] } }>(
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
      const prepared = await prepareReply(app, {
        owner: { tenant: request.tenant, userId: request.auth.userId },
        bot: row,
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
            price: Number(row.price),
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
