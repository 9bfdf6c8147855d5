import type { Db } from '../db/database';
import type { Owner } from '../owner';
import type { Attachment, Passage, Turn } from '../providers/types';
import { isImage } from './kinds';

/** What a model bot can take: images or not, and how much text (admin fields, kept in `bots.config`). */
export interface BotReach {
  vision: boolean;
  contextTokens: number;
}
export const defaultContextTokens = 8000;
/** The usual estimate for English text: about four characters a token. */
export const charsPerToken = 4;
/** Images a model is shown at most in one request, the newest. */
const maxImages = 10;

export function reachOf(config: Record<string, unknown>): BotReach {
  return {
    vision: config.vision === true,
    contextTokens:
      typeof config.contextTokens === 'number' && config.contextTokens > 0
        ? config.contextTokens
        : defaultContextTokens,
  };
}

interface AttachmentRow {
  message_id: string;
  file_id: string;
  name: string;
  type: string;
  present: boolean;
  text: string | null;
  length: number | null;
}

/** The characters of a bot's context kept for passages when it searches (knowledge bases, long documents). */
export const passageRoom = (config: Record<string, unknown>) =>
  Math.floor((reachOf(config).contextTokens * charsPerToken) / 2);

/**
 * The conversation with the files its messages carried (a user's attachments, the images a reply
 * generated), for the model: images as data URLs
 * for a bot that sees them, documents as their text as far as the bot's context has room, less
 * `reserve` characters (the newest message's first; what does not fit is cut and marked truncated,
 * and listed in `unfit` to be searched instead).
 */
export async function withAttachments(
  db: Db,
  owner: Owner,
  conversation: { history: Turn[]; text: string; messageId: string },
  config: Record<string, unknown>,
  reserve = 0,
): Promise<{ history: Turn[]; attachments: Attachment[]; unfit: string[] }> {
  const reach = reachOf(config);
  const ids = [
    // A bot's turns too: the images its replies generated.
    ...conversation.history.flatMap((turn) => (turn.id ? [turn.id] : [])),
    conversation.messageId,
  ];
  const budget = reach.contextTokens * charsPerToken;
  // No document gets more than the whole budget, so that is all that is read of any.
  const { rows } = await db.query<AttachmentRow>(
    `select mf.message_id, mf.file_id, mf.name, mf.type, f.id is not null as present,
            left(b.text, $4) as text, length(b.text) as length
     from message_files mf
     left join files f on f.id = mf.file_id and f.tenant = $1 and f.user_id = $2
     left join file_blobs b on b.tenant = f.tenant and b.sha256 = f.sha256
     where mf.message_id = any($3::text[])
     order by mf.message_id, mf.position`,
    [owner.tenant, owner.userId, ids, budget],
  );
  if (!rows.length) return { history: conversation.history, attachments: [], unfit: [] };

  const said =
    conversation.history.reduce((sum, turn) => sum + turn.text.length, 0) +
    conversation.text.length +
    (typeof config.systemPrompt === 'string' ? config.systemPrompt.length : 0);
  let room = Math.max(0, budget - said - reserve);
  const unfit: string[] = [];
  let images = maxImages;
  const shown: string[] = [];
  const byMessage = new Map<string, Attachment[]>();
  // Newest message first: its files have the first claim on the room left.
  for (const id of [...ids].reverse()) {
    const attachments = rows
      .filter((row) => row.message_id === id)
      .map((row): Attachment => {
        const file = { name: row.name, type: row.type };
        if (!row.present) return { ...file, omitted: 'deleted by its owner since' };
        if (isImage(row.type)) {
          if (!reach.vision) return { ...file, omitted: 'an image, and this bot cannot see images' };
          if (images <= 0) return { ...file, omitted: 'an earlier image, not shown again' };
          images -= 1;
          shown.push(row.file_id);
          return { ...file, dataUrl: row.file_id };
        }
        const whole = row.length ?? 0;
        const given = Math.min(whole, room);
        room -= given;
        if (given < whole) unfit.push(row.file_id);
        return {
          ...file,
          text: (row.text ?? '').slice(0, given),
          ...(given < whole ? { truncated: { of: whole } } : {}),
        };
      });
    byMessage.set(id, attachments);
  }
  // The bytes of the images shown only, read once each.
  if (shown.length) {
    const { rows: data } = await db.query<{ id: string; type: string; data: string }>(
      `select f.id, b.type, encode(b.bytes, 'base64') as data
       from files f join file_blobs b on b.tenant = f.tenant and b.sha256 = f.sha256
       where f.tenant = $1 and f.user_id = $2 and f.id = any($3::text[])`,
      [owner.tenant, owner.userId, [...new Set(shown)]],
    );
    const urls = new Map(
      data.map((row) => [row.id, `data:${row.type};base64,${row.data.replace(/\s+/g, '')}`]),
    );
    for (const attachments of byMessage.values())
      for (const attachment of attachments) {
        if (!attachment.dataUrl) continue;
        attachment.dataUrl = urls.get(attachment.dataUrl);
        if (!attachment.dataUrl) attachment.omitted = 'deleted by its owner since';
      }
  }
  return {
    history: conversation.history.map((turn) =>
      turn.id && byMessage.get(turn.id)?.length ? { ...turn, attachments: byMessage.get(turn.id) } : turn,
    ),
    attachments: byMessage.get(conversation.messageId) ?? [],
    unfit,
  };
}

const quote = (value: string) => value.replaceAll('"', "'");

/** A user's text with the documents (and notes on the files left out) it carried, as the model reads it. */
export function textWithAttachments(text: string, attachments: Attachment[] = []): string {
  const parts = [text];
  for (const file of attachments) {
    if (file.dataUrl) continue;
    const about = `name="${quote(file.name)}" type="${file.type}"`;
    if (file.omitted) parts.push(`[Attached file ${about}: not included, ${file.omitted}.]`);
    else if (file.text !== undefined) {
      const cut = file.truncated
        ? ` truncated="only the first ${file.text.length} of ${file.truncated.of} characters fit"`
        : '';
      parts.push(`<attached-file ${about}${cut}>\n${file.text}\n</attached-file>`);
    }
  }
  return parts.join('\n\n');
}

/** The passages found for the question, after it, numbered as the model should cite them. */
export function textWithPassages(text: string, passages: Passage[] = []): string {
  if (!passages.length) return text;
  const given = passages.map(
    (passage) =>
      `<passage n="${passage.n}" file="${quote(passage.name)}"${passage.page ? ` page="${passage.page}"` : ''}>\n${passage.text}\n</passage>`,
  );
  return `${text}\n\n<passages note="the passages of the documents most relevant to this message; cite them as [n]">\n${given.join('\n')}\n</passages>`;
}
