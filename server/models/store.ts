import { mayUseBot } from '../access/groups';
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import type { Owner } from '../owner';

// The organization's model catalogue as the rest of the server reads it: the models a member may
// use, the models a bot offers, and a model as a reply runs on it. The admin API (server/admin/models)
// edits the catalogue.

/** A catalogue model as stored. */
export interface ModelRow {
  id: string;
  name: string;
  provider: string | null;
  model: string;
  price: string;
  input_price: string | null;
  output_price: string | null;
  vision: boolean;
  context_tokens: number;
  member_bots: boolean;
}

export const modelColumns = `m.id, m.name, m.provider, m.model, m.price, m.input_price, m.output_price, m.vision,
  m.context_tokens, m.member_bots`;

/** A model on the wire: prices per reply and (optionally) per million input and output tokens. */
export interface CatalogueModel {
  _id: string;
  name: string;
  price: number;
  inputPrice?: number;
  outputPrice?: number;
  vision: boolean;
  contextTokens: number;
  memberBots: boolean;
}

export const toCatalogueModel = (row: ModelRow): CatalogueModel => ({
  _id: row.id,
  name: row.name,
  price: Number(row.price),
  ...(row.input_price === null ? {} : { inputPrice: Number(row.input_price) }),
  ...(row.output_price === null ? {} : { outputPrice: Number(row.output_price) }),
  vision: row.vision,
  contextTokens: row.context_tokens,
  memberBots: row.member_bots,
});

/**
 * The models a member may use: those offered by the organization's active bots they may use (their
 * groups), and, while the organization lets members make bots, those open to members' bots. By name.
 */
export async function modelsForMember(db: Db, owner: Owner): Promise<CatalogueModel[]> {
  const { rows } = await db.query<ModelRow>(
    `select ${modelColumns} from models m
     where m.tenant = $1 and (
       exists (select 1 from bot_models bm join bots b on b.id = bm.bot_id
               where bm.model_id = m.id and b.tenant = $1 and b.active and ${mayUseBot('b.id', '$2')})
       or (m.member_bots and (select member_bots from organizations where subdomain = $1)))
     order by lower(m.name), m.id`,
    [owner.tenant, owner.userId],
  );
  return rows.map(toCatalogueModel);
}

/**
 * SQL: where the default catalogue model of the bot `bot` (an SQL expression) runs: its provider's id,
 * '' for the server's own, null for a bot without catalogue models (`model_provider` of `canRun`).
 */
export const defaultModelProvider = (bot: string) =>
  `(select coalesce(m.provider, '') from bot_models bm join models m on m.id = bm.model_id
    where bm.bot_id = ${bot} order by bm.position limit 1)`;

/** A model as a reply runs on it: where it is called and how it is priced. */
export interface ReplyModel {
  id: string;
  name: string;
  /** The organization's provider; null: the server's own model server. */
  provider: string | null;
  /** The provider's name for it. */
  model: string;
  price: string;
  inputPrice: string | null;
  outputPrice: string | null;
  vision: boolean;
  contextTokens: number;
}

export const toReplyModel = (row: ModelRow): ReplyModel => ({
  id: row.id,
  name: row.name,
  provider: row.provider,
  model: row.model,
  price: row.price,
  inputPrice: row.input_price,
  outputPrice: row.output_price,
  vision: row.vision,
  contextTokens: row.context_tokens,
});

/** The models the bot offers, its default first (none: the bot runs its own settings). */
export async function modelsOfBot(db: Db, botId: string): Promise<ReplyModel[]> {
  const { rows } = await db.query<ModelRow>(
    `select ${modelColumns} from bot_models bm join models m on m.id = bm.model_id
     where bm.bot_id = $1 order by bm.position`,
    [botId],
  );
  return rows.map(toReplyModel);
}

export const modelNotOffered = () =>
  new ApiError(
    400,
    'This bot does not offer that model. Choose one of its models.',
    'INVALID_INPUT',
    'model',
  );

/**
 * The model a reply runs on, of those the bot offers: `wanted` (a member's pick, refused when the
 * bot does not offer it), else the first of `preferred` the bot still offers (the model that wrote a
 * reply being continued, the conversation's choice), else the bot's default; null for a bot without
 * catalogue models.
 */
export function pickModel(
  offered: ReplyModel[],
  preferred: (string | null)[],
  wanted?: string | null,
): ReplyModel | null {
  if (wanted) {
    const model = offered.find((candidate) => candidate.id === wanted);
    if (!model) throw modelNotOffered();
    return model;
  }
  for (const id of preferred) {
    const model = offered.find((candidate) => candidate.id === id);
    if (model) return model;
  }
  return offered[0] ?? null;
}

/**
 * The bot's settings for a reply on `model`: the catalogue row replaces where the bot's replies go
 * (its provider, or the server's own when null; an operator's base URL and key of the bot's no longer
 * apply), the model called, whether it sees images and how much it reads. Null: the bot's own.
 */
export function withModel(
  config: Record<string, unknown>,
  model: ReplyModel | null,
): Record<string, unknown> {
  if (!model) return config;
  const { provider: _provider, baseUrl: _baseUrl, apiKey: _apiKey, ...rest } = config;
  return {
    ...rest,
    ...(model.provider ? { provider: model.provider } : {}),
    model: model.model,
    vision: model.vision,
    contextTokens: model.contextTokens,
  };
}

/** The longest reply a catalogue model writes unless the conversation sets one. */
export const defaultReplyTokens = 4096;

/**
 * The longest reply on `model`, in tokens: the conversation's maximum, else the default, within the
 * model's context; without a catalogue model, the conversation's maximum (if any).
 */
export function replyTokensOf(
  model: ReplyModel | null,
  parameters: { maxTokens?: number },
): number | undefined {
  if (!model) return parameters.maxTokens;
  return Math.min(parameters.maxTokens ?? defaultReplyTokens, model.contextTokens);
}
