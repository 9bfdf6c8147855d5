import { groupsOfMember } from '../access/groups';
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { modelsForMember } from '../models/store';
import type { Owner } from '../owner';
import { organizationTools } from '../tools/registry';

// Members' own bots: a `bots` row with `owner_id`, platform `openai`, one catalogue model (bot_models),
// its instructions (`config.systemPrompt`), starters, files (the maker's own, searched for every
// message) and tools in its config, and its groups (bot_groups) when shared with groups. Who may use
// one is server/access/groups.ts `mayUseBot`.

export type Visibility = 'private' | 'groups' | 'organization';

/** A member's bot as its maker edits it. */
export interface MemberBot {
  _id: string;
  name: string;
  description: string;
  instructions: string;
  starters: string[];
  /** The catalogue model it runs on (id). */
  model: string;
  files: { _id: string; name: string; type: string; size: number }[];
  tools: string[];
  visibility: Visibility;
  /** The groups it is shared with (ids), with visibility `groups`. */
  groups: string[];
  /** An administrator retired it: it answers no more. */
  retired: boolean;
}

/** What a member's bot is made of; in a change, what is left out stays as it was. */
export interface MemberBotInput {
  name?: string;
  description?: string;
  instructions?: string;
  starters?: string[];
  model?: string;
  files?: string[];
  tools?: string[];
  visibility?: Visibility;
  groups?: string[];
}

interface MemberBotRow {
  id: string;
  name: string;
  description: string;
  config: Record<string, unknown>;
  visibility: Visibility;
  retired: boolean;
  model: string;
  groups: string[];
  files: MemberBot['files'];
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

// Its files as they are now: those its maker deleted since drop out.
const botQuery = `select b.id, b.name, b.description, b.config, b.visibility, b.retired,
    (select bm.model_id from bot_models bm where bm.bot_id = b.id order by bm.position limit 1) as model,
    array(select bg.group_id from bot_groups bg where bg.bot_id = b.id order by bg.group_id) as groups,
    coalesce((select json_agg(json_build_object('_id', f.id, 'name', f.name, 'type', fb.type, 'size', fb.size)
                              order by given.position)
              from jsonb_array_elements_text(coalesce(b.config->'files', '[]')) with ordinality as given (id, position)
              join files f on f.id = given.id and f.user_id = b.owner_id and f.tenant = b.tenant
              join file_blobs fb on fb.tenant = f.tenant and fb.sha256 = f.sha256), '[]') as files
  from bots b where b.tenant = $1 and b.owner_id = $2 and b.deleted_at is null`;

const toMemberBot = (row: MemberBotRow): MemberBot => ({
  _id: row.id,
  name: row.name,
  description: row.description,
  instructions: typeof row.config.systemPrompt === 'string' ? row.config.systemPrompt : '',
  starters: strings(row.config.starters),
  model: row.model,
  files: row.files,
  tools: strings(row.config.tools),
  visibility: row.visibility,
  groups: row.groups,
  retired: row.retired,
});

export const memberBotNotFound = () => new ApiError(404, 'Bot not found', 'NOT_FOUND');

/** The member's own bots, by name. */
export async function listMemberBots(db: Db, who: Owner): Promise<MemberBot[]> {
  const { rows } = await db.query<MemberBotRow>(`${botQuery} order by lower(b.name), b.id`, [
    who.tenant,
    who.userId,
  ]);
  return rows.map(toMemberBot);
}

/** A bot of the member's own; anyone else's is 404 as if it did not exist. */
export async function readMemberBot(db: Db, who: Owner, id: string): Promise<MemberBot> {
  const { rows } = await db.query<MemberBotRow>(`${botQuery} and b.id = $3`, [who.tenant, who.userId, id]);
  if (!rows[0]) throw memberBotNotFound();
  return toMemberBot(rows[0]);
}

/** Whether the organization lets members make bots, and the tools it lets them give those bots. */
export async function memberBotRules(db: Db, tenant: string): Promise<{ on: boolean; tools: string[] }> {
  const { rows } = await db.query<{ member_bots: boolean; member_bot_tools: string[] }>(
    'select member_bots, member_bot_tools from organizations where subdomain = $1',
    [tenant],
  );
  return { on: rows[0]?.member_bots ?? false, tools: rows[0]?.member_bot_tools ?? [] };
}

/**
 * What the member may put in a bot besides models (GET /api/v1/model) and their files: the tools an
 * administrator lets members use, and the groups they are in.
 */
export async function memberBotChoices(db: Db, who: Owner) {
  const [rules, tools, groups] = await Promise.all([
    memberBotRules(db, who.tenant),
    organizationTools(db, who.tenant),
    db.query<{ _id: string; name: string }>(
      `select g.id as "_id", g.name from groups g join group_members gm on gm.group_id = g.id
       where g.tenant = $1 and gm.user_id = $2 order by lower(g.name), g.id`,
      [who.tenant, who.userId],
    ),
  ]);
  return {
    tools: tools
      .filter((tool) => rules.tools.includes(tool.name))
      .map((tool) => ({ name: tool.name, description: tool.description })),
    groups: groups.rows,
  };
}

export const memberBotsOff = () =>
  new ApiError(
    403,
    'This organization does not let members make their own bots. Ask an administrator.',
    'MEMBER_BOTS_OFF',
  );

const refused = (field: string, message: string, status = 400) =>
  new ApiError(status, message, status === 404 ? 'NOT_FOUND' : 'INVALID_INPUT', field);

/**
 * Refuses what the member may not put in a bot, each refusal naming its field: a model that is not
 * open to members' bots, another member's files, a tool an administrator does not let members use,
 * a group they are not in; groups only, and then at least one, for a bot shared with groups.
 */
async function checkInput(
  db: Db,
  who: Owner,
  input: MemberBotInput,
  now: { visibility: Visibility; groups: string[] } | null,
) {
  const rules = await memberBotRules(db, who.tenant);
  if (!rules.on) throw memberBotsOff();
  if (input.model !== undefined) {
    const models = await modelsForMember(db, who);
    if (!models.some((model) => model._id === input.model && model.memberBots))
      throw refused('model', 'This model does not exist or is not open to members’ bots.', 404);
  }
  if (input.files?.length) {
    const { rows } = await db.query(
      'select id from files where tenant = $1 and user_id = $2 and id = any($3::text[])',
      [who.tenant, who.userId, input.files],
    );
    if (rows.length !== input.files.length)
      throw refused('files', 'A file does not exist or is not yours to use.', 404);
  }
  const notAllowed = input.tools?.find((tool) => !rules.tools.includes(tool));
  if (notAllowed)
    throw refused('tools', `${notAllowed} is not one of the tools members may give their bots.`);
  const visibility = input.visibility ?? now?.visibility ?? 'private';
  const groups = input.groups ?? (visibility === now?.visibility ? now.groups : []);
  if (visibility !== 'groups' && input.groups?.length)
    throw refused('groups', 'Groups are only for a bot shared with groups.');
  if (visibility === 'groups' && !groups.length)
    throw refused('groups', 'Choose at least one of your groups to share this bot with.');
  if (input.groups?.length) {
    const mine = await groupsOfMember(db, who.tenant, who.userId);
    if (input.groups.some((group) => !mine.includes(group)))
      throw refused('groups', 'A group does not exist or you are not in it.', 404);
  }
  return { visibility, groups: visibility === 'groups' ? groups : [] };
}

const unique = (values: string[]) => [...new Set(values)];

/** The input as stored: lists without repeats, starters trimmed and without empty ones. */
const cleaned = (input: MemberBotInput): MemberBotInput => ({
  ...input,
  ...(input.starters
    ? { starters: unique(input.starters.map((starter) => starter.trim()).filter(Boolean)) }
    : {}),
  ...(input.files ? { files: unique(input.files) } : {}),
  ...(input.tools ? { tools: unique(input.tools) } : {}),
  ...(input.groups ? { groups: unique(input.groups) } : {}),
});

/** The bot's config after `input`: the keys given replace those it had (empty ones go). */
function configAfter(config: Record<string, unknown>, input: MemberBotInput): Record<string, unknown> {
  const next = { ...config };
  const set = (key: string, value: unknown, empty: boolean) => {
    if (value === undefined) return;
    if (empty) delete next[key];
    else next[key] = value;
  };
  set('systemPrompt', input.instructions?.trim(), !input.instructions?.trim());
  set('starters', input.starters, !input.starters?.length);
  set('files', input.files, !input.files?.length);
  set('tools', input.tools, !input.tools?.length);
  return next;
}

const nameTaken = () => new ApiError(409, 'You have a bot with this name already.', 'NAME_TAKEN', 'name');

/** A write refused by the database: the name taken, or the model removed meanwhile. */
function writeFailure(error: unknown) {
  const code = (error as { code?: string }).code;
  if (code === '23505') return nameTaken();
  if (code === '23503') return refused('model', 'This model does not exist any more.', 404);
  return error;
}

async function writeLists(db: Db, id: string, input: MemberBotInput, groups: string[] | null) {
  if (input.model !== undefined) {
    await db.query('delete from bot_models where bot_id = $1', [id]);
    await db.query('insert into bot_models (bot_id, model_id, position) values ($1, $2, 0)', [
      id,
      input.model,
    ]);
  }
  if (groups) {
    await db.query('delete from bot_groups where bot_id = $1', [id]);
    await db.query('insert into bot_groups (bot_id, group_id) select $1, unnest($2::text[])', [id, groups]);
  }
}

/** A new bot of the member's, checked and written in one transaction (403 while the setting is off). */
export async function createMemberBot(
  db: Db,
  who: Owner,
  given: MemberBotInput & { name: string; model: string; visibility: Visibility },
): Promise<MemberBot> {
  const input = cleaned(given);
  const id = await db
    .transaction(async (tx) => {
      const { visibility, groups } = await checkInput(tx, who, input, null);
      // Priced by its model (server/replies): its own price is never asked.
      const { rows } = await tx.query<{ id: string }>(
        `insert into bots (tenant, name, description, active, platform, price, config, position, owner_id, visibility)
         values ($1, $2, $3, true, 'openai', 0, $4,
                 (select coalesce(max(position), -1) + 1 from bots where tenant = $1), $5, $6)
         returning id`,
        [
          who.tenant,
          input.name,
          input.description?.trim() ?? '',
          JSON.stringify(configAfter({}, input)),
          who.userId,
          visibility,
        ],
      );
      await writeLists(tx, rows[0].id, input, groups);
      return rows[0].id;
    })
    .catch((error) => {
      throw writeFailure(error);
    });
  return readMemberBot(db, who, id);
}

/** Changes the member's own bot: what is given replaces what it had (403 while the setting is off). */
export async function changeMemberBot(
  db: Db,
  who: Owner,
  id: string,
  given: MemberBotInput,
): Promise<MemberBot> {
  const input = cleaned(given);
  await db
    .transaction(async (tx) => {
      const { rows } = await tx.query<MemberBotRow>(`${botQuery} and b.id = $3 for update of b`, [
        who.tenant,
        who.userId,
        id,
      ]);
      const bot = rows[0];
      if (!bot) throw memberBotNotFound();
      const { visibility, groups } = await checkInput(tx, who, input, bot);
      await tx.query(
        `update bots set name = coalesce($2, name), description = coalesce($3, description), config = $4,
           visibility = $5
         where id = $1`,
        [
          id,
          input.name ?? null,
          input.description?.trim() ?? null,
          JSON.stringify(configAfter(bot.config, input)),
          visibility,
        ],
      );
      const regrouped = input.groups !== undefined || visibility !== bot.visibility;
      await writeLists(tx, id, input, regrouped ? groups : null);
    })
    .catch((error) => {
      throw writeFailure(error);
    });
  return readMemberBot(db, who, id);
}

/**
 * Deletes the member's own bot. One that conversations still name (theirs or others') is kept for
 * them, answering no more and listed nowhere (`deleted_at`); one that none names goes outright.
 */
export async function deleteMemberBot(db: Db, who: Owner, id: string) {
  await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ used: boolean }>(
      `select exists (select 1 from topics t where t.bot_id = b.id) as used from bots b
       where b.id = $1 and b.tenant = $2 and b.owner_id = $3 and b.deleted_at is null for update`,
      [id, who.tenant, who.userId],
    );
    if (!rows[0]) throw memberBotNotFound();
    if (rows[0].used) await tx.query('update bots set deleted_at = now() where id = $1', [id]);
    else await tx.query('delete from bots where id = $1', [id]);
  });
}
