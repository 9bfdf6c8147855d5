import type { Db } from '../db/database';
import { ApiError } from '../errors';
import type { Turn } from '../providers/types';

export const messageNotFound = () => new ApiError(404, 'This message does not exist.', 'NOT_FOUND');

export interface TreeMessage {
  id: string;
  parent: string | null;
  role: 'user' | 'bot';
  /** The catalogue model that wrote a reply. */
  model_id: string | null;
}

/** A message of the topic (the topic is already the user's), or 404: ids of other topics never match. */
export async function messageOf(db: Db, topicId: string, messageId: string): Promise<TreeMessage> {
  const { rows } = await db.query<TreeMessage>(
    'select id, parent, role, model_id from messages where id = $1 and topic_id = $2',
    [messageId, topicId],
  );
  if (!rows[0]) throw messageNotFound();
  return rows[0];
}

/** The turns of the branch that ends at `leafId`, oldest first: what a model is told as history. */
export async function branchTurns(db: Db, topicId: string, leafId: string | null): Promise<Turn[]> {
  if (!leafId) return [];
  const { rows } = await db.query<Turn>(
    `with recursive branch as (
       select id, parent, role, text, 0 as depth from messages where id = $1 and topic_id = $2
       union all
       select m.id, m.parent, m.role, m.text, b.depth + 1 from messages m join branch b on m.id = b.parent)
     select id, role, text from branch where text <> '' order by depth desc`,
    [leafId, topicId],
  );
  return rows;
}

/**
 * The user's message `messageId` with the branch before it, as a reply answering it (again) is given
 * them, and whether the member asked it to search the web; null when the branch does not end with a
 * message of the user's.
 */
export async function questionAt(
  db: Db,
  topicId: string,
  messageId: string,
): Promise<{ history: Turn[]; text: string; webSearch: boolean } | null> {
  const [history, { rows }] = await Promise.all([
    branchTurns(db, topicId, messageId),
    db.query<{ web_search: boolean }>('select web_search from messages where id = $1 and topic_id = $2', [
      messageId,
      topicId,
    ]),
  ]);
  const asked = history.pop();
  return asked?.role === 'user'
    ? { history, text: asked.text, webSearch: rows[0]?.web_search === true }
    : null;
}

/**
 * The message a new message follows: omitted, the branch on screen (`head`); null, a new first
 * message; a reply, an edit of the message after it, on a new branch (the old one is kept).
 */
export async function parentFor(
  db: Db,
  topicId: string,
  head: string | null,
  requested: string | null | undefined,
): Promise<string | null> {
  if (requested === undefined) return head;
  if (requested !== null && (await messageOf(db, topicId, requested)).role !== 'bot')
    throw new ApiError(
      400,
      'Only your own messages can be edited: send the new text after the reply before it.',
      'NOT_EDITABLE',
      'parent',
    );
  return requested;
}
