import { knowledgeOf } from '../../bots/config';
import type { Db } from '../../db/database';
import { ApiError } from '../../errors';
import { reachOf } from '../../files/prompt';
import { checkBases } from '../../knowledge/store';
import { askFirstOf, checkTools, toolsOf } from '../../tools/registry';

export const engines = ['eliza', 'calculator', 'translator', 'librarian'] as const;
/** The built-in engine that reads knowledge bases (model bots all can). */
const readingEngine = 'librarian';

export interface BotRow {
  id: string;
  name: string;
  description: string;
  active: boolean;
  platform: 'builtin' | 'openai' | 'image';
  config: Record<string, unknown>;
  price: string;
  position: number;
  categories: { _id: string; name: string }[];
  groups: string[];
  models: string[];
  user_parameters: boolean;
  owner_id: string | null;
  owner_name: string | null;
  visibility: 'private' | 'groups' | 'organization' | null;
  retired: boolean;
}

/** What the admin area edits: the bot with its settings spelled out (the config's keys as fields). */
export interface AdminBot {
  _id: string;
  name: string;
  description: string;
  platform: 'builtin' | 'openai' | 'image';
  engine?: string;
  provider?: string;
  model?: string;
  systemPrompt?: string;
  temperature?: number;
  /** A model bot that is sent images (as data URLs). */
  vision: boolean;
  /** How much a model bot can read, in tokens: documents are given as far as they fit. */
  contextTokens: number;
  /** The knowledge bases it searches: the organization's, by id. */
  knowledge: string[];
  /** The tools a model bot may call, by name (built-in, or an MCP server's). */
  tools: string[];
  /** Those of its tools that wait for the user's approval at each call. */
  askFirst: string[];
  price: number;
  categories: { _id: string; name: string }[];
  /** The groups whose members may use it (ids); empty: everyone. */
  groups: string[];
  /** The catalogue models it offers (ids), the first its default; empty: it runs its own settings. */
  models: string[];
  /** Whether members may set a conversation's temperature and maximum reply length. */
  userParameters: boolean;
  active: boolean;
  position: number;
  /** Who made it, for a member's own bot (its maker edits it; an administrator may retire it). */
  owner?: { _id: string; name: string };
  /** Whom a member's bot is shared with. */
  visibility?: 'private' | 'groups' | 'organization';
  /** A member's bot an administrator retired: it answers no more (undone by setting it false). */
  retired: boolean;
}

const configKeys = [
  'engine',
  'provider',
  'model',
  'systemPrompt',
  'temperature',
  'vision',
  'contextTokens',
  'knowledge',
  'tools',
  'askFirst',
] as const;

export function toAdminBot(row: BotRow): AdminBot {
  const bot: AdminBot = {
    _id: row.id,
    name: row.name,
    description: row.description,
    platform: row.platform,
    price: Number(row.price),
    categories: row.categories,
    groups: row.groups,
    models: row.models,
    userParameters: row.user_parameters,
    active: row.active,
    position: row.position,
    ...(row.owner_id ? { owner: { _id: row.owner_id, name: row.owner_name ?? '' } } : {}),
    ...(row.visibility ? { visibility: row.visibility } : {}),
    retired: row.retired,
    ...reachOf(row.config),
    knowledge: knowledgeOf(row.config),
    tools: toolsOf(row.config),
    askFirst: askFirstOf(row.config),
  };
  for (const key of configKeys) {
    const value = row.config[key];
    if (value !== undefined && value !== null) Object.assign(bot, { [key]: value });
  }
  return bot;
}

const botQuery = `select b.id, b.name, b.description, b.active, b.platform, b.config, b.price, b.position,
    b.user_parameters, b.owner_id, b.visibility, b.retired,
    (select u.display_name from users u where u.id = b.owner_id) as owner_name,
    array(select bm.model_id from bot_models bm where bm.bot_id = b.id order by bm.position) as models,
    coalesce(json_agg(json_build_object('_id', c.id, 'name', c.name) order by c.name)
      filter (where c.id is not null), '[]') as categories,
    array(select bg.group_id from bot_groups bg join groups g on g.id = bg.group_id
          where bg.bot_id = b.id order by lower(g.name), g.id) as groups
  from bots b
  left join bot_categories bc on bc.bot_id = b.id
  left join categories c on c.id = bc.category_id`;
// A member's bot its maker deleted (kept for the conversations that name it) is gone for the admins too.
const shown = 'b.deleted_at is null';

export async function listBots(db: Db, tenant: string): Promise<AdminBot[]> {
  const { rows } = await db.query<BotRow>(
    `${botQuery} where b.tenant = $1 and ${shown} group by b.id order by b.position, b.name`,
    [tenant],
  );
  return rows.map(toAdminBot);
}

export const botNotFound = () => new ApiError(404, 'Bot not found', 'NOT_FOUND');

export async function readBot(db: Db, tenant: string, id: string): Promise<{ bot: AdminBot; row: BotRow }> {
  const { rows } = await db.query<BotRow>(
    `${botQuery} where b.tenant = $1 and b.id = $2 and ${shown} group by b.id`,
    [tenant, id],
  );
  if (!rows[0]) throw botNotFound();
  return { bot: toAdminBot(rows[0]), row: rows[0] };
}

export interface BotInput {
  name: string;
  description: string;
  platform: 'builtin' | 'openai' | 'image';
  engine?: string | null;
  provider?: string | null;
  model?: string | null;
  systemPrompt?: string | null;
  temperature?: number | null;
  vision?: boolean;
  contextTokens?: number;
  knowledge?: string[];
  tools?: string[];
  askFirst?: string[];
  price: number;
  categories: string[];
  groups?: string[];
  models?: string[];
  userParameters?: boolean;
  active: boolean;
  position?: number;
}

/**
 * The bot's `config` from the editor's fields, checked against the platform: a built-in bot names its
 * engine, an image bot nothing (the organization's image settings draw), a model bot may name a provider of the organization (404 for anyone else's); model bots
 * and the Librarian may read knowledge bases of the organization; model bots may call tools of the
 * organization (`tools`, some of them `askFirst`). Other keys of an existing config
 * (an operator's baseUrl) are kept.
 */
export async function configOf(
  db: Db,
  tenant: string,
  input: BotInput,
  previous: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const kept = Object.fromEntries(
    Object.entries(previous).filter(([key]) => !(configKeys as readonly string[]).includes(key)),
  );
  const knowledge = await checkBases(db, tenant, input.knowledge ?? []);
  const reads = knowledge.length ? { knowledge } : {};
  if (input.platform === 'builtin') {
    if (!input.engine || !(engines as readonly string[]).includes(input.engine))
      throw new ApiError(
        400,
        `A built-in bot needs an engine: ${engines.join(', ')}.`,
        'INVALID_INPUT',
        'engine',
      );
    for (const field of ['provider', 'model', 'systemPrompt', 'temperature'] as const) {
      if (input[field] !== undefined && input[field] !== null)
        throw new ApiError(400, `A built-in bot has no ${field}.`, 'INVALID_INPUT', field);
    }
    if (input.vision) throw new ApiError(400, 'A built-in bot cannot see images.', 'INVALID_INPUT', 'vision');
    if (input.tools?.length || input.askFirst?.length)
      throw new ApiError(400, 'A built-in bot cannot call tools.', 'INVALID_INPUT', 'tools');
    if (knowledge.length && input.engine !== readingEngine)
      throw new ApiError(
        400,
        'Of the built-in bots only the Librarian reads knowledge bases.',
        'INVALID_INPUT',
        'knowledge',
      );
    return { engine: input.engine, ...reads };
  }
  if (input.platform === 'image') {
    // Its every message is a prompt for the organization's image settings: nothing else to set.
    for (const field of ['engine', 'provider', 'model', 'systemPrompt', 'temperature'] as const) {
      if (input[field] !== undefined && input[field] !== null)
        throw new ApiError(400, `An image bot has no ${field}.`, 'INVALID_INPUT', field);
    }
    if (input.vision) throw new ApiError(400, 'An image bot cannot see images.', 'INVALID_INPUT', 'vision');
    if (input.tools?.length || input.askFirst?.length)
      throw new ApiError(400, 'An image bot cannot call tools.', 'INVALID_INPUT', 'tools');
    if (knowledge.length)
      throw new ApiError(400, 'An image bot reads no knowledge bases.', 'INVALID_INPUT', 'knowledge');
    return {};
  }
  if (input.engine) throw new ApiError(400, 'A model bot has no engine.', 'INVALID_INPUT', 'engine');
  if (input.provider) {
    const { rows } = await db.query('select 1 from providers where id = $1 and tenant = $2', [
      input.provider,
      tenant,
    ]);
    if (!rows.length) throw new ApiError(404, 'Provider not found', 'NOT_FOUND', 'provider');
  }
  // Names the bot had already stay (an MCP server may be away for a while); new ones must exist.
  const had = new Set(toolsOf(previous));
  const { tools, askFirst } = await checkTools(db, tenant, input.tools ?? [], input.askFirst ?? [], had);
  const config: Record<string, unknown> = { ...kept, ...reads };
  if (tools.length) config.tools = tools;
  if (askFirst.length) config.askFirst = askFirst;
  if (input.provider) config.provider = input.provider;
  if (input.model?.trim()) config.model = input.model.trim();
  if (input.systemPrompt?.trim()) config.systemPrompt = input.systemPrompt;
  if (typeof input.temperature === 'number') config.temperature = input.temperature;
  if (input.vision) config.vision = true;
  if (typeof input.contextTokens === 'number') config.contextTokens = input.contextTokens;
  return config;
}

/** The categories' ids when all are the organization's; 404 naming the field otherwise. */
export async function checkCategories(db: Db, tenant: string, ids: string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return unique;
  const { rows } = await db.query<{ id: string }>(
    'select id from categories where tenant = $1 and id = any($2::text[])',
    [tenant, unique],
  );
  if (rows.length !== unique.length) throw new ApiError(404, 'Category not found', 'NOT_FOUND', 'categories');
  return unique;
}

/** What a bot's row holds besides its categories and groups: the config checked already. */
export interface BotWrite {
  name: string;
  description: string;
  active: boolean;
  platform: 'builtin' | 'openai' | 'image';
  price: number;
  config: Record<string, unknown>;
  position: number;
  userParameters: boolean;
}

/** A bot's written columns, in the order both statements list them. */
const botValues = (bot: Omit<BotWrite, 'position'> & { position: number | null }) => [
  bot.name,
  bot.description,
  bot.active,
  bot.platform,
  bot.price,
  JSON.stringify(bot.config),
  bot.position,
  bot.userParameters,
];

/** Adds a bot, last in the list unless given a position (a taken name is the unique violation it throws). */
export async function insertBot(
  db: Db,
  tenant: string,
  bot: Omit<BotWrite, 'position'> & { position: number | null },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into bots (tenant, name, description, active, platform, price, config, position, user_parameters)
     values ($1, $2, $3, $4, $5, $6, $7,
             coalesce($8, (select coalesce(max(position), -1) + 1 from bots where tenant = $1)), $9)
     returning id`,
    [tenant, ...botValues(bot)],
  );
  return rows[0].id;
}

export async function updateBot(db: Db, tenant: string, id: string, bot: BotWrite) {
  await db.query(
    `update bots set name = $3, description = $4, active = $5, platform = $6, price = $7, config = $8,
       position = $9, user_parameters = $10 where id = $1 and tenant = $2`,
    [id, tenant, ...botValues(bot)],
  );
}

/**
 * Retires the bot, kept for the conversations it had: an admin bot goes inactive, a member's bot
 * `retired` (its maker's `active` is left alone, so undoing it gives the bot back as it was).
 */
export async function retireBot(db: Db, tenant: string, id: string) {
  await db.query(
    `update bots set active = active and owner_id is not null, retired = owner_id is not null
     where id = $1 and tenant = $2`,
    [id, tenant],
  );
}

/** Retires a member's bot, or gives it back (`retired` false). */
export async function setRetired(db: Db, tenant: string, id: string, retired: boolean) {
  await db.query('update bots set retired = $3 where id = $1 and tenant = $2 and owner_id is not null', [
    id,
    tenant,
    retired,
  ]);
}

/** Puts the bot in these (checked) categories and no other. */
export async function setBotCategories(db: Db, botId: string, categories: string[]) {
  await db.query('delete from bot_categories where bot_id = $1', [botId]);
  if (categories.length)
    await db.query('insert into bot_categories (bot_id, category_id) select $1, unnest($2::text[])', [
      botId,
      categories,
    ]);
}

/** Who may use the bot: these (checked) groups' members, or everyone when none. */
export async function setBotGroups(db: Db, botId: string, groups: string[]) {
  await db.query('delete from bot_groups where bot_id = $1', [botId]);
  if (groups.length)
    await db.query('insert into bot_groups (bot_id, group_id) select $1, unnest($2::text[])', [
      botId,
      groups,
    ]);
}
