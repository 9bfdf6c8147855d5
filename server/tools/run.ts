import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database';
import type { ReplyTools, ToolCall } from '../providers/types';
import type { BotTools } from './registry';
import { awaitDecision, endStep, type Step, type StepOwner, shorten, startStep } from './steps';
import { ToolError } from './types';

/** How many tool calls one reply may make. */
export const maxSteps = 8;
/** The longest any tool may run (each has a shorter limit of its own; this one guards against a stuck one). */
export const toolTimeoutMs = 30_000;

export const needsApproval = 'This tool needs approval in the app: it cannot be used through the API.';

/** What the model reads back of a step: a denial where nobody can be asked (`refusal`) reads as a tool error. */
function forModel(step: Step, refusal: string): string {
  if (step.status === 'done') return step.result ?? '';
  if (step.status === 'denied' && step.error !== refusal)
    return `The user did not allow this call (${step.error ?? 'denied'}). Answer without it.`;
  return `Error: ${step.error ?? 'the tool failed.'}`;
}

type StepStart = Parameters<typeof startStep>[2];
type StepEnd = Parameters<typeof endStep>[2];

/** The steps of a reply nobody keeps (the admin's "Try it"): the same records, in memory only. */
function unkeptSteps() {
  const open = new Map<string, Step>();
  return {
    start: async ({ tool, arguments: args, status, error }: StepStart): Promise<Step> => {
      const step: Step = {
        callId: randomUUID(),
        tool,
        arguments: args,
        status,
        ms: 0,
        ...(error ? { error } : {}),
      };
      if (status === 'running') open.set(step.callId, step);
      return step;
    },
    end: async (callId: string, { ms, ...ending }: StepEnd): Promise<Step | null> => {
      const step = open.get(callId);
      open.delete(callId);
      return step ? { ...step, ...ending, ms: Math.round(ms) } : null;
    },
  };
}

/** The arguments as a JSON object, or why they are not one. */
function parseArguments(text: string): { value: unknown; problem?: string } {
  if (!text.trim()) return { value: {} };
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { value };
    return { value, problem: 'The arguments must be a JSON object.' };
  } catch {
    return { value: text, problem: 'The arguments are not valid JSON.' };
  }
}

/** Runs the tool within `limitMs` (`toolTimeoutMs` unless it has its own), its signal aborted at the reply's stop or the timeout. */
async function runBounded(
  run: (args: Record<string, unknown>, signal: AbortSignal) => Promise<string>,
  args: Record<string, unknown>,
  signal: AbortSignal,
  limitMs = toolTimeoutMs,
): Promise<string> {
  const timer = new AbortController();
  const both = AbortSignal.any([signal, timer.signal]);
  let timeout: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timeout = setTimeout(() => {
      timer.abort();
      reject(new ToolError(`The tool did not answer within ${limitMs / 1000} s.`));
    }, limitMs);
  });
  let stop = () => {};
  const stopped = new Promise<never>((_, reject) => {
    stop = () => reject(signal.reason ?? new Error('stopped'));
    signal.addEventListener('abort', stop, { once: true });
  });
  try {
    const running = run(args, both);
    // Settling after the race is lost (timed out, stopped) must not be an unhandled rejection.
    running.catch(() => {});
    return await Promise.race([running, late, stopped]);
  } finally {
    clearTimeout(timeout);
    signal.removeEventListener('abort', stop);
  }
}

/**
 * One reply's tool calls: each stored as a step when announced and when it ends (`show` hears both),
 * an "ask first" call waiting for the user's answer (from any node) — or, where nobody can answer
 * (`approvals: false`, the API), denied at once with `refusal`. Without an `owner` (the admin's
 * "Try it") the steps are kept nowhere and nobody is asked. A failing or slow tool gives the model
 * an error to read, never a stuck reply; a stop ends the open step and throws.
 */
export function replyTools(options: {
  db: Db;
  owner: StepOwner | null;
  bot: BotTools;
  signal: AbortSignal;
  approvals: boolean;
  refusal?: string;
  log: FastifyBaseLogger;
  show?: (step: Step) => void;
  /** The steps the reply already has (one continued): its new ones come after them. */
  after?: number;
}): ReplyTools | undefined {
  const { db, owner, bot, signal, log } = options;
  if (!bot.tools.size) return undefined;
  const show = options.show ?? (() => {});
  const refusal = options.refusal ?? needsApproval;
  const approvals = options.approvals && owner !== null;
  const steps = owner
    ? {
        start: (step: StepStart) => startStep(db, owner, step),
        end: (callId: string, ending: StepEnd) => endStep(db, callId, ending),
      }
    : unkeptSteps();
  let position = options.after ?? 0;
  return {
    maxSteps,
    optional: bot.optional,
    definitions: [...bot.tools.values()].map(({ info }) => ({
      type: 'function',
      function: { name: info.name, description: info.description, parameters: info.parameters },
    })),
    async call(call: ToolCall) {
      signal.throwIfAborted();
      const tool = bot.tools.get(call.name);
      const parsed = parseArguments(call.arguments);
      const problem = !tool ? `There is no tool named ${call.name}.` : parsed.problem;
      const asks = bot.askFirst.has(call.name);
      let step = await steps.start({
        position: position++,
        tool: call.name.slice(0, 200),
        modelCallId: call.id,
        arguments: parsed.value,
        ...(problem
          ? { status: 'error', error: problem }
          : asks && !approvals
            ? { status: 'denied', error: refusal }
            : { status: asks ? 'awaiting_approval' : 'running' }),
      });
      show(step);
      const began = performance.now();
      try {
        if (step.status === 'awaiting_approval') {
          step = await awaitDecision(db, step.callId, signal);
          show(step);
        }
        if (step.status !== 'running' || !tool) return forModel(step, refusal);
        let ending: StepEnd;
        const started = performance.now();
        try {
          const result = await runBounded(
            (args, bounded) => tool.run(args, bounded, owner),
            parsed.value as Record<string, unknown>,
            signal,
            tool.timeoutMs,
          );
          ending = { status: 'done', result: shorten(result), ms: performance.now() - started };
        } catch (error) {
          if (signal.aborted) throw error;
          if (!(error instanceof ToolError)) log.warn({ err: error, tool: call.name }, 'a tool failed');
          const message = error instanceof ToolError ? error.message : `${call.name} failed.`;
          ending = { status: 'error', error: shorten(message), ms: performance.now() - started };
        }
        step = (await steps.end(step.callId, ending)) ?? step;
        show(step);
        return forModel(step, refusal);
      } catch (error) {
        if (!signal.aborted) throw error;
        // Stopped while the call was open: it ends with the reply.
        const ended = await steps
          .end(step.callId, {
            status: 'error',
            error: 'Stopped before it finished.',
            ms: performance.now() - began,
          })
          .catch(() => null);
        if (ended) show(ended);
        throw error;
      }
    },
  };
}
