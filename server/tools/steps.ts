import { setTimeout as sleep } from 'node:timers/promises';
import { replyChannel } from '../db/channels';
import type { Db } from '../db/database';
import type { Owner } from '../owner';

export type StepStatus = 'awaiting_approval' | 'running' | 'done' | 'error' | 'denied';

/** One tool call of a reply, as the conversation shows it. */
export interface Step {
  callId: string;
  tool: string;
  /** The parsed JSON arguments (the raw text when the model sent something else). */
  arguments: unknown;
  result?: string;
  error?: string;
  status: StepStatus;
  /** Time taken; 0 while awaiting or running. */
  ms: number;
}

/** The most of a tool's result kept (and given to the model): the rest is cut, marked "…". */
export const resultLimit = 20_000;
export const shorten = (text: string) =>
  text.length > resultLimit ? `${text.slice(0, resultLimit - 1)}…` : text;

/** How long a call waits for the user's approval before it counts as denied. */
export const approvalWaitMs = 10 * 60 * 1000;
/** How often the generating node looks for the user's answer (given on any node). */
const approvalPollMs = 250;

interface StepRow {
  id: string;
  tool: string;
  arguments: unknown;
  result: string | null;
  error: string | null;
  status: StepStatus;
  ms: number;
}
const stepColumns = 'id, tool, arguments, result, error, status, ms';

export const toStep = (row: StepRow): Step => ({
  callId: row.id,
  tool: row.tool,
  arguments: row.arguments,
  ...(row.result === null ? {} : { result: row.result }),
  ...(row.error === null ? {} : { error: row.error }),
  status: row.status,
  ms: row.ms,
});

/** SQL: the steps of the message `m` as a JSON array in order, or null when it has none. */
export const stepsJson = (message = 'm.id') =>
  `(select json_agg(json_build_object('callId', s.id, 'tool', s.tool, 'arguments', s.arguments,
           'result', s.result, 'error', s.error, 'status', s.status, 'ms', s.ms) order by s.position)
    from tool_steps s where s.message_id = ${message})`;

/** Steps read with `stepsJson`: the JSON nulls left out, as the wire carries them. */
export const stepsOf = (
  rows: (Omit<Step, 'result' | 'error'> & { result?: string | null; error?: string | null })[] | null,
) =>
  (rows ?? []).map(({ result, error, ...step }) => ({
    ...step,
    ...(result === null || result === undefined ? {} : { result }),
    ...(error === null || error === undefined ? {} : { error }),
  })) as Step[];

/** Where a step belongs: a chat reply's message, or a completion of the API. */
export type StepOwner = { tenant: string } & ({ messageId: string } | { apiCallId: string });

/** The changed steps of `changed` (a CTE returning them): a reply's follower on another node is woken. */
const announced = `select ${stepColumns}, case when message_id is not null then pg_notify('${replyChannel}', message_id) end
  from changed`;

/** Stores a call as it is announced (running, awaiting approval, or already refused). */
export async function startStep(
  db: Db,
  owner: StepOwner,
  step: {
    position: number;
    tool: string;
    modelCallId: string;
    arguments: unknown;
    status: StepStatus;
    error?: string;
  },
): Promise<Step> {
  const { rows } = await db.query<StepRow>(
    `with changed as (
       insert into tool_steps (tenant, message_id, api_call_id, position, tool, model_call_id, arguments, status, error)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning ${stepColumns}, message_id)
     ${announced}`,
    [
      owner.tenant,
      'messageId' in owner ? owner.messageId : null,
      'apiCallId' in owner ? owner.apiCallId : null,
      step.position,
      step.tool,
      step.modelCallId,
      JSON.stringify(step.arguments ?? null),
      step.status,
      step.error ?? null,
    ],
  );
  return toStep(rows[0]);
}

/** Ends a call that is still open (awaiting or running): its result or error and the time it took. */
export async function endStep(
  db: Db,
  callId: string,
  ending: { status: 'done' | 'error' | 'denied'; result?: string; error?: string; ms: number },
): Promise<Step | null> {
  const { rows } = await db.query<StepRow>(
    `with changed as (
       update tool_steps set status = $2, result = $3, error = $4, ms = $5
       where id = $1 and status in ('awaiting_approval', 'running') returning ${stepColumns}, message_id)
     ${announced}`,
    [callId, ending.status, ending.result ?? null, ending.error ?? null, Math.round(ending.ms)],
  );
  return rows[0] ? toStep(rows[0]) : null;
}

/** The steps of a reply so far, in order: those of a reply that is continued stay before its new ones. */
export async function stepsOfMessage(db: Db, messageId: string): Promise<Step[]> {
  const { rows } = await db.query<StepRow>(
    `select ${stepColumns} from tool_steps where message_id = $1 order by position`,
    [messageId],
  );
  return rows.map(toStep);
}

async function readStep(db: Db, callId: string): Promise<Step | null> {
  const { rows } = await db.query<StepRow>(`select ${stepColumns} from tool_steps where id = $1`, [callId]);
  return rows[0] ? toStep(rows[0]) : null;
}

/**
 * Waits for the user's answer to a call awaiting approval, given on any node (the database holds it):
 * the step once it is no longer awaiting (running: approved; denied). After `approvalWaitMs` it is
 * denied. Throws when `signal` aborts (the reply was stopped).
 */
export async function awaitDecision(db: Db, callId: string, signal: AbortSignal): Promise<Step> {
  const until = Date.now() + approvalWaitMs;
  for (;;) {
    signal.throwIfAborted();
    const step = await readStep(db, callId);
    if (!step) throw new Error('The call is gone.');
    if (step.status !== 'awaiting_approval') return step;
    if (Date.now() >= until) {
      const denied = await endStep(db, callId, { status: 'denied', error: 'No answer in time.', ms: 0 });
      if (denied) return denied;
      continue;
    }
    await sleep(approvalPollMs, undefined, { signal });
  }
}

/**
 * The user's answer to a call of their own topic awaiting approval: running (allowed) or denied.
 * Null when the topic or call is not theirs (404); 'not awaiting' when it was answered already or ended.
 */
export async function decideStep(
  db: Db,
  owner: Owner,
  topicId: string,
  callId: string,
  approve: boolean,
): Promise<Step | null | 'not awaiting'> {
  const { rows } = await db.query<StepRow & { decided: boolean }>(
    `with mine as (
       select s.id, s.message_id from tool_steps s join messages m on m.id = s.message_id join topics t on t.id = m.topic_id
       where s.id = $1 and t.id = $2 and t.tenant = $3 and t.user_id = $4),
     decided as (
       update tool_steps s set status = $5, error = $6
       from mine where s.id = mine.id and s.status = 'awaiting_approval'
       returning ${stepColumns.replace(/(\w+)/g, 's.$1')}, pg_notify('${replyChannel}', mine.message_id))
     select ${stepColumns}, true as decided from decided
     union all
     select ${stepColumns.replace(/(\w+)/g, 's.$1')}, false from tool_steps s join mine on mine.id = s.id
     where not exists (select 1 from decided)`,
    [
      callId,
      topicId,
      owner.tenant,
      owner.userId,
      approve ? 'running' : 'denied',
      approve ? null : 'Denied by the user.',
    ],
  );
  if (!rows[0]) return null;
  return rows[0].decided ? toStep(rows[0]) : 'not awaiting';
}
