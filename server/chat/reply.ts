import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { botNotForYou } from '../access/groups';
import { insufficientBalance } from '../billing/reservations';
import { priceToHold } from '../billing/tokens';
import { ApiError } from '../errors';
import { isImage } from '../files/kinds';
import { reachOf } from '../files/prompt';
import { modelsOfBot, pickModel, replyTokensOf, withModel } from '../models/store';
import type { Owner } from '../owner';
import type { Citation, Turn } from '../providers/types';
import { runnable } from '../replies/bots';
import { type Outcome, prepareReply, type ReplyRecord, shownFailure } from '../replies/pipeline';
import type { ReplyEvent } from '../replies/sse';
import { readSearch } from '../search/store';
import type { Step } from '../tools/steps';
import {
  checkpoint,
  release,
  replyFiles,
  replyInProgress,
  replyStatus,
  type StartedReply,
  setCitations,
  settle,
  topicForReply,
} from './replyStore';
import { modelTitle } from './titles';
import { topicNotFound, writeTitle } from './topics';

/** How often the text of a streaming reply is stored: a crash loses at most this much of it. */
const checkpointMs = 500;

/**
 * The topic (the user's own, else 404), its bot and the model the reply is written by (`wanted`: one
 * the bot offers, else 400; by default `preferred` (the model of a reply continued) or the
 * conversation's choice while the bot offers them, else the bot's default), when a
 * reply can start now: the bot is for the user's groups, this node takes replies, the bot can run
 * here, the user can pay what the reply holds (its model's maximum on a token-priced model), and no
 * reply is being written in the topic. Refused before anything is reserved.
 */
export async function replyableTopic(
  app: FastifyInstance,
  owner: Owner,
  topicId: string,
  choice: { wanted?: string | null; preferred?: string | null } = {},
) {
  const topic = await topicForReply(app.db, owner, topicId);
  if (!topic) throw topicNotFound();
  const offered = await modelsOfBot(app.db, topic.bot_id);
  const model = pickModel(offered, [choice.preferred ?? null, topic.model_id], choice.wanted);
  // A conversation's parameters count while its bot allows them.
  const parameters = topic.user_parameters ? topic.parameters : {};
  const run = runnable(app, { ...topic, config: withModel(topic.config, model) });
  if (run.refused === 'not_allowed') throw botNotForYou(topic);
  if (run.refused === 'shutting_down')
    throw new ApiError(
      503,
      'This server is restarting. Send your message again in a moment.',
      'SHUTTING_DOWN',
    );
  if (run.refused) throw new ApiError(409, 'This bot is not available right now.', 'BOT_INACTIVE');
  const price = priceToHold(topic.price, model, replyTokensOf(model, parameters) ?? 0);
  if (Number(topic.available) < price) throw insufficientBalance();
  if (topic.busy) throw replyInProgress();
  return { ...topic, provider: run.provider, model, parameters, price };
}

/** Refused before anything is reserved: a bot (on its model) without vision is never sent an image. */
export function refuseUnseen(topic: ReplyableTopic, files: { type: string }[]) {
  if (files.some((file) => isImage(file.type)) && !reachOf(withModel(topic.config, topic.model)).vision)
    throw new ApiError(
      422,
      `${topic.model?.name ?? topic.name} cannot see images. Remove the image, or ask a bot that can see images.`,
      'VISION_UNSUPPORTED',
      'files',
    );
}

/**
 * Refused before anything is reserved: "Search the web" (`webSearch: true`) needs a model bot and the
 * organization's search engine (the app offers it only then).
 */
export async function refuseWebSearch(app: FastifyInstance, owner: Owner, topic: ReplyableTopic) {
  if (topic.platform !== 'openai')
    throw new ApiError(
      400,
      `${topic.name} cannot search the web: only bots that run on a model can.`,
      'SEARCH_UNSUPPORTED',
      'webSearch',
    );
  if (!(await readSearch(app.db, owner.tenant)))
    throw new ApiError(
      400,
      'Web search is not set up in this organization: an admin can choose a search engine in Settings.',
      'SEARCH_NOT_CONFIGURED',
      'webSearch',
    );
}

type ReplyableTopic = Awaited<ReturnType<typeof replyableTopic>>;

/**
 * The bot message as the reply's record: checkpointed (its lease renewed), then settled (priced by its
 * model) or released.
 */
function messageRecord(
  app: FastifyInstance,
  owner: Owner,
  topic: ReplyableTopic,
  messageId: string,
): ReplyRecord {
  const description = `Reply from ${topic.name}${topic.model ? ` (${topic.model.name})` : ''}`;
  return {
    renewMs: checkpointMs,
    renew: (text) => checkpoint(app.db, messageId, text),
    settle: (text, free, usage) =>
      settle(app.db, owner, { messageId, text, description, free, usage, pricing: topic.model }),
    release: (text, status) => release(app.db, owner, { messageId, text, status }),
    cite: (citations) => setCitations(app.db, messageId, citations),
  };
}

/**
 * Starts writing a reply into a live reply of this node, apart from the request: followers come and
 * go. Its context is built first (it may refuse: the reply just started is then released). A reply
 * continued (`sofar`: its text and tool steps) goes on after them.
 */
export async function startLiveReply(
  app: FastifyInstance,
  request: { owner: Owner; log: FastifyBaseLogger },
  reply: {
    topicId: string;
    topic: ReplyableTopic;
    started: StartedReply;
    /**
     * The branch before the message answered, that message (and whether the member asked it to search
     * the web), and whether any of it carries files.
     */
    conversation: { history: Turn[]; text: string; messageId: string; webSearch?: boolean };
    carriesFiles: boolean;
    sofar?: { text: string; steps: Step[]; pages: Citation[] };
    /** The reply answers the topic's first message: once complete, a model bot names the topic. */
    names?: boolean;
  },
) {
  const { topic, started, sofar } = reply;
  const messageId = started.botMessageId;
  const prepared = await prepareReply(app, {
    owner: request.owner,
    bot: topic,
    model: topic.model,
    parameters: topic.parameters,
    provider: topic.provider,
    // A message, a regeneration and a continuation alike: in the topic's project, if it has one; the
    // member's own conversation in the app (their instructions and memories join it).
    conversation: { ...reply.conversation, project: topic.project, personal: true },
    carriesFiles: reply.carriesFiles,
    steps: { tenant: request.owner.tenant, messageId },
    approvals: true,
    continuing: sofar && { text: sofar.text, steps: sofar.steps.length, pages: sofar.pages },
    record: messageRecord(app, request.owner, topic, messageId),
    log: request.log,
  });
  const live = app.liveReplies.start(reply.topicId, messageId, sofar);
  const sink = {
    token: (text: string) =>
      live.emit({ event: 'token', id: live.text.length + text.length, data: { text } }),
    step: (step: Step) => live.emit({ event: 'step', data: { botMessageId: messageId, step } }),
  };
  live.finished = prepared
    .run(sink, live.controller.signal)
    .then(async (outcome) => {
      const title =
        reply.names && outcome.end === 'complete'
          ? await nameTopic(app, request, reply.topicId, topic, {
              question: reply.conversation.text,
              answer: outcome.text,
              signal: live.controller.signal,
            })
          : null;
      live.emit(await lastEvent(app, started, outcome, live.steps(), title));
    })
    .finally(() => app.liveReplies.finish(live));
  return live;
}

const stoppedCode = 'STOPPED';
const stoppedEvent = (ids: object) => ({ error: 'The reply was stopped.', code: stoppedCode, ...ids });

/**
 * The topic's title written by the bot's model after its first reply (a model bot's platform has a
 * title writer; a built-in bot's topic keeps its first line): stored unless the member has set one
 * meanwhile, and answered then. One small request of its own, never charged; any failure (logged)
 * leaves the title as it was.
 */
async function nameTopic(
  app: FastifyInstance,
  request: { owner: Owner; log: FastifyBaseLogger },
  topicId: string,
  bot: ReplyableTopic,
  exchange: { question: string; answer: string; signal: AbortSignal },
): Promise<string | null> {
  const writer = app.botTitlers[bot.platform];
  if (!writer || !exchange.answer.trim()) return null;
  try {
    const config = withModel(bot.config, bot.model);
    const answer = await writer({ config, tenant: request.owner.tenant, ...exchange });
    const title = answer ? modelTitle(answer) : '';
    if (!title) return null;
    return (await writeTitle(app.db, request.owner, topicId, title)) ? title : null;
  } catch (error) {
    if (!exchange.signal.aborted) request.log.warn({ err: error }, 'writing a conversation title failed');
    return null;
  }
}

/**
 * The reply's last event: done with its charge (and the topic's new `title` when its model just
 * wrote one), or why it ended (the ids when it is kept).
 */
async function lastEvent(
  app: FastifyInstance,
  started: StartedReply,
  outcome: Outcome,
  steps: Step[],
  title: string | null = null,
): Promise<ReplyEvent> {
  const ids = {
    ...(started.userMessageId ? { userMessageId: started.userMessageId } : {}),
    botMessageId: started.botMessageId,
  };
  if (outcome.end === 'lost') return endedElsewhere(app, ids);
  if (outcome.end === 'complete') {
    const { citations, charge } = outcome;
    // The images its tools made (a reply calling none has none).
    const files = steps.length ? await replyFiles(app.db, started.botMessageId) : [];
    return {
      event: 'done',
      data: {
        ...ids,
        ...charge,
        ...(citations.length ? { citations } : {}),
        ...(steps.length ? { steps } : {}),
        ...(files.length ? { files } : {}),
        ...(title ? { title } : {}),
      },
    };
  }
  const shown = outcome.kept ? ids : {};
  if (outcome.end === 'stopped') return { event: 'error', data: stoppedEvent(shown) };
  const failure = shownFailure(outcome.error);
  return { event: 'error', data: { error: failure.message, code: failure.code, ...shown } };
}

/** The last event of a reply that was ended by someone else: stopped from another node, cut off, or deleted. */
async function endedElsewhere(app: FastifyInstance, ids: { botMessageId: string }): Promise<ReplyEvent> {
  const status = await replyStatus(app.db, ids.botMessageId);
  if (status === 'stopped') return { event: 'error', data: stoppedEvent(ids) };
  if (!status)
    return { event: 'error', data: { error: 'This conversation does not exist.', code: 'NOT_FOUND' } };
  return {
    event: 'error',
    data: { error: 'The reply was interrupted. Please try again.', code: 'INTERRUPTED', ...ids },
  };
}
