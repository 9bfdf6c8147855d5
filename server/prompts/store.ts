import type { Prompt } from '../../machines/promptText';
import type { Db } from '../db/database';
import type { Owner } from '../owner';
import { uniqueViolation } from '../schemas';

export type { Prompt };

/** The most prompts one member keeps (their organization's included, when they wrote them). */
export const maxPrompts = 200;

/** What a member writes: the command as kept (`commandOf`), the title and the text. */
export interface PromptInput {
  command: string;
  title: string;
  text: string;
  visibility: Prompt['visibility'];
}

/** Why a write was refused: the member's command, or the organization's, is taken; or they keep too many. */
export type PromptRefusal = 'taken' | 'takenInOrganization' | 'full';

interface Row {
  id: string;
  command: string;
  title: string;
  text: string;
  visibility: Prompt['visibility'];
}

const columns = 'id, command, title, text, visibility';
const toPrompt = (row: Row): Prompt => ({
  _id: row.id,
  command: row.command,
  title: row.title,
  text: row.text,
  visibility: row.visibility,
});

function refusalOf(error: unknown): PromptRefusal {
  if (!uniqueViolation(error)) throw error;
  return (error as { constraint?: string }).constraint === 'prompts_organization_command'
    ? 'takenInOrganization'
    : 'taken';
}

/** Whether the member is an admin (or owner) of their organization: only they write its prompts. */
export async function isOrganizationAdmin(db: Db, owner: Owner): Promise<boolean> {
  const { rows } = await db.query<{ role: string }>('select role from users where id = $1 and tenant = $2', [
    owner.userId,
    owner.tenant,
  ]);
  return rows[0]?.role === 'admin' || rows[0]?.role === 'owner';
}

/** The member's own prompts and the organization's, by command (their own first where both have one). */
export async function listPrompts(db: Db, owner: Owner): Promise<Prompt[]> {
  const { rows } = await db.query<Row>(
    `select ${columns} from prompts where tenant = $1 and (user_id = $2 or visibility = 'organization')
     order by command, visibility desc, created_at, id`,
    [owner.tenant, owner.userId],
  );
  return rows.map(toPrompt);
}

/** A prompt the member sees (their own, or the organization's), with whether it is theirs; null otherwise. */
export async function readPrompt(
  db: Db,
  owner: Owner,
  id: string,
): Promise<(Prompt & { own: boolean }) | null> {
  const { rows } = await db.query<Row & { own: boolean }>(
    `select ${columns}, user_id = $3 as own from prompts
     where id = $1 and tenant = $2 and (user_id = $3 or visibility = 'organization')`,
    [id, owner.tenant, owner.userId],
  );
  return rows[0] ? { ...toPrompt(rows[0]), own: rows[0].own } : null;
}

/** Saves a new prompt of the member's, unless they keep `maxPrompts` already. One statement. */
export async function addPrompt(db: Db, owner: Owner, input: PromptInput): Promise<Prompt | PromptRefusal> {
  try {
    const { rows } = await db.query<Row>(
      `insert into prompts (tenant, user_id, command, title, text, visibility)
       select $1, $2, $3, $4, $5, $6
       where (select count(*) from prompts where tenant = $1 and user_id = $2) < $7
       returning ${columns}`,
      [owner.tenant, owner.userId, input.command, input.title, input.text, input.visibility, maxPrompts],
    );
    return rows[0] ? toPrompt(rows[0]) : 'full';
  } catch (error) {
    return refusalOf(error);
  }
}

/** Changes a prompt the member sees (the caller has checked they may write it); null when it is gone. */
export async function changePrompt(
  db: Db,
  owner: Owner,
  id: string,
  change: Partial<PromptInput>,
): Promise<Prompt | PromptRefusal | null> {
  try {
    const { rows } = await db.query<Row>(
      `update prompts set command = coalesce($3, command), title = coalesce($4, title),
         text = coalesce($5, text), visibility = coalesce($6, visibility), updated_at = now()
       where id = $1 and tenant = $2 and (user_id = $7 or visibility = 'organization') returning ${columns}`,
      [
        id,
        owner.tenant,
        change.command ?? null,
        change.title ?? null,
        change.text ?? null,
        change.visibility ?? null,
        owner.userId,
      ],
    );
    return rows[0] ? toPrompt(rows[0]) : null;
  } catch (error) {
    return refusalOf(error);
  }
}

/** Deletes a prompt the member sees (the caller has checked they may); false when it is gone. */
export async function deletePrompt(db: Db, owner: Owner, id: string): Promise<boolean> {
  const { rows } = await db.query(
    `delete from prompts where id = $1 and tenant = $2 and (user_id = $3 or visibility = 'organization')
     returning id`,
    [id, owner.tenant, owner.userId],
  );
  return rows.length > 0;
}
