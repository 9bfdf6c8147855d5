import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { tokenPriced } from '../billing/tokens';
import { charsPerToken } from '../files/prompt';
import { citationOf } from '../knowledge/retrieval';
import { type ReplyModel, replyTokensOf, withModel } from '../models/store';
import type { Owner } from '../owner';
import {
  type Citation,
  type Provider,
  ProviderError,
  type ReplyParameters,
  type ReplyUsage,
} from '../providers/types';
import { replyTools } from '../tools/run';
import type { Step, StepOwner } from '../tools/steps';
import { type ReplyContext, replyContext } from './context';

/** What a reply was charged, and the balance after. */
export interface Charge {
  cost: number;
  balance: number;
}

/**
 * Where a reply is kept while it runs and when it ends, with its reservation: a chat message, an API
 * call, or nothing (`unkept`).
 */
export interface ReplyRecord {
  /** How often `renew` is called while the reply runs (0: never). */
  renewMs: number;
  /** Keeps the text so far and renews the lease; false when the reply was ended elsewhere. */
  renew(text: string): Promise<boolean>;
  /** Complete: charged (nothing when `free`; by `usage` on a token-priced model); null when it had been ended elsewhere. */
  settle(text: string, free: boolean, usage: ReplyUsage): Promise<Charge | null>;
  /** Ended early: kept as far as `text` (null: as last kept), its reservation given back; whether it is kept. */
  release(text: string | null, status: 'stopped' | 'failed'): Promise<boolean>;
  /** Keeps the sources the reply is given, before it starts. */
  cite?(citations: Citation[]): Promise<void>;
}

/** The admin's "Try it": nothing kept, nothing charged. */
export const unkept: ReplyRecord = {
  renewMs: 0,
  renew: async () => true,
  settle: async () => ({ cost: 0, balance: 0 }),
  release: async () => false,
};

/** Who hears the reply as it is written: the chat's live reply, the API's chunks. */
export interface ReplySink {
  token(text: string): void;
  step(step: Step): void;
}

/** How a reply ended; `lost`: someone else ended it (stopped from another node, cut off, deleted). */
export type Outcome =
  | {
      end: 'complete';
      text: string;
      charge: Charge;
      citations: Citation[];
      usage: ReplyUsage;
      /** The model stopped at the maximum length. */
      cut: boolean;
    }
  | { end: 'stopped'; text: string; kept: boolean }
  | { end: 'failed'; text: string; kept: boolean; error: unknown }
  | { end: 'lost' };

export interface ReplyJob {
  owner: Owner;
  bot: { platform: string; config: Record<string, unknown> };
  /** The catalogue model the reply is written by (the bot's own settings when null). */
  model?: ReplyModel | null;
  /** The conversation's (or the API call's) temperature, maximum length and stop sequences. */
  parameters?: ReplyParameters;
  provider: Provider;
  /**
   * The branch before the message answered, oldest first, and that message (stored: `messageId`);
   * its topic's project, and whether it is the member's own conversation in the app (`personal`).
   */
  conversation: Parameters<typeof replyContext>[3];
  /** Whether the conversation carries files (read for the bot when it does). */
  carriesFiles?: boolean;
  /** Where the tool steps are kept; null: nowhere (Try it). */
  steps: StepOwner | null;
  /** Whether a tool that asks first waits for the user's answer; else it is denied with `refusal`. */
  approvals: boolean;
  refusal?: string;
  /** A reply taken up again: what was written of it, how many tool steps it has and the web pages it cited. */
  continuing?: { text: string; steps: number; pages?: Citation[] };
  record: ReplyRecord;
  log: FastifyBaseLogger;
}

export interface PreparedReply {
  context: ReplyContext;
  /** Writes the reply into `sink` until it ends or `signal` stops it; never throws. */
  run(sink: ReplySink, signal: AbortSignal): Promise<Outcome>;
}

/**
 * The reply's context (`replyContext`), its sources kept with it: everything that may refuse, before
 * anything is sent. Should it fail, the reply is released (nothing charged) and the error thrown.
 */
export async function prepareReply(app: FastifyInstance, given: ReplyJob): Promise<PreparedReply> {
  // The one place a reply's model joins it: the catalogue row replaces where the bot's replies go.
  const job = { ...given, bot: { ...given.bot, config: withModel(given.bot.config, given.model ?? null) } };
  let context: ReplyContext;
  try {
    context = await replyContext(app, job.owner, job.bot, job.conversation, job.carriesFiles);
    context.tools.sources?.keep(job.continuing?.pages ?? []);
    if (context.knowledge?.passages.length) await job.record.cite?.(citationsOf(job, context));
  } catch (error) {
    await job.record.release(null, 'failed');
    throw error;
  }
  return { context, run: (sink, signal) => runReply(app, job, context, sink, signal) };
}

/**
 * The provider loop: tokens and tool steps (with approvals where someone can give them) into `sink`,
 * the record renewed as it goes (a reply ended elsewhere stops spending), then settled, or released
 * as far as it got when stopped or failed.
 */
async function runReply(
  app: FastifyInstance,
  job: ReplyJob,
  context: ReplyContext,
  sink: ReplySink,
  signal: AbortSignal,
): Promise<Outcome> {
  const { record, log } = job;
  let text = job.continuing?.text ?? '';
  let free = false;
  const renewal = keepRenewed(record, () => text, log);
  const used: ReplyUsage = { promptTokens: 0, completionTokens: 0, estimated: false };
  let reported = false;
  let cut = false;
  const stop = AbortSignal.any([signal, renewal.lost]);
  const tools = replyTools({
    db: app.db,
    owner: job.steps,
    bot: context.tools,
    signal: stop,
    approvals: job.approvals,
    refusal: job.refusal,
    log,
    after: job.continuing?.steps,
    show: (step) => sink.step(step),
  });
  const citations = () => citationsOf(job, context);
  const citeWebPages = async () => {
    if (context.tools.sources?.citations.length) await record.cite?.(citations());
  };
  try {
    for await (const piece of job.provider({
      history: context.history,
      text: context.text,
      attachments: context.attachments,
      knowledge: context.knowledge,
      instructions: context.instructions,
      config: job.bot.config,
      tenant: job.owner.tenant,
      signal: stop,
      waive: () => {
        free = true;
      },
      parameters: parametersOf(job),
      usage: (round) => {
        reported = true;
        used.promptTokens += round.promptTokens;
        used.completionTokens += round.completionTokens;
        used.estimated ||= round.estimated;
      },
      cut: () => {
        cut = true;
      },
      tools,
      continuing: job.continuing?.text,
    })) {
      text += piece;
      sink.token(piece);
    }
    renewal.end();
    if (renewal.lost.aborted) return { end: 'lost' };
    await citeWebPages();
    if (signal.aborted) return { end: 'stopped', text, kept: await record.release(text, 'stopped') };
    const usage = reported ? used : estimatedUsage(context, text);
    const charge = await record.settle(text, free, usage);
    if (!charge) return { end: 'lost' };
    return { end: 'complete', text, charge, citations: citations(), usage, cut };
  } catch (error) {
    renewal.end();
    if (renewal.lost.aborted) return { end: 'lost' };
    await citeWebPages().catch((failure) => log.error({ err: failure }, 'keeping a reply’s sources failed'));
    if (!(error instanceof ProviderError)) log.error({ err: error }, 'reply failed');
    const status = signal.aborted ? 'stopped' : 'failed';
    const kept = await record.release(text, status).catch((failure) => {
      log.error({ err: failure }, 'releasing a reply failed');
      return false;
    });
    return status === 'stopped' ? { end: 'stopped', text, kept } : { end: 'failed', text, kept, error };
  }
}

/**
 * What a reply cites: the passages it was given, then the pages its web searches found (a continued
 * reply's earlier ones first, still when it cannot search any more).
 */
const citationsOf = (job: ReplyJob, context: ReplyContext): Citation[] => [
  ...(context.knowledge?.passages.map(citationOf) ?? []),
  ...(context.tools.sources?.citations ?? job.continuing?.pages ?? []),
];

/**
 * The reply's parameters as the engine sends them: a maximum length where one is set, and always on a
 * token-priced model (its reservation counted on it).
 */
function parametersOf(job: ReplyJob): ReplyParameters {
  const { maxTokens: _asked, ...parameters } = job.parameters ?? {};
  const model = job.model ?? null;
  const bounded = job.parameters?.maxTokens !== undefined || tokenPriced(model);
  const maxTokens = bounded ? replyTokensOf(model, job.parameters ?? {}) : undefined;
  return maxTokens === undefined ? parameters : { ...parameters, maxTokens };
}

/** A rough count of tokens (about four characters each), where the model reports none. */
export const estimateTokens = (text: string) =>
  text ? Math.max(1, Math.ceil(text.length / charsPerToken)) : 0;

/** The usage of a reply whose engine reported none (the built-in bots): estimated from what it read and wrote. */
function estimatedUsage(context: ReplyContext, text: string): ReplyUsage {
  const read = [...context.instructions, ...context.history.map((turn) => turn.text), context.text].join(
    '\n',
  );
  return { promptTokens: estimateTokens(read), completionTokens: estimateTokens(text), estimated: true };
}

/** Renews the record every `renewMs` while the reply runs: `lost` aborts once it was ended elsewhere. */
function keepRenewed(record: ReplyRecord, text: () => string, log: FastifyBaseLogger) {
  const lost = new AbortController();
  const timer = record.renewMs
    ? setInterval(() => {
        record.renew(text()).then(
          (mine) => {
            if (!mine) lost.abort();
          },
          (error) => log.warn({ err: error }, 'renewing a reply failed'),
        );
      }, record.renewMs)
    : undefined;
  return { lost: lost.signal, end: () => clearInterval(timer) };
}

/** A failure as the user is told it: the provider's own words, else ours. */
export const shownFailure = (error: unknown): ProviderError =>
  error instanceof ProviderError
    ? error
    : new ProviderError('The reply failed on our side. Please try again.', 'INTERNAL');
