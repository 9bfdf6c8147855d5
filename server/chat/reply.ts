import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { botNotForYou } from '../access/groups';
import { insufficientBalance } from '../billing/reservations';
import { ApiError } from '../errors';
import { isImage } from '../files/kinds';
import { reachOf } from '../files/prompt';
import type { Owner } from '../owner';
import type { Turn } from '../providers/types';
import { runnable } from '../replies/bots';
import { type Outcome, prepareReply, type ReplyRecord, shownFailure } from '../replies/pipeline';
import type { ReplyEvent } from '../replies/sse';
import type { Step } from '../tools/steps';
import {
  checkpoint,
  release,
  replyInProgress,
  replyStatus,
  type StartedReply,
  setCitations,
  settle,
  topicForReply,
} from './replyStore';
import { topicNotFound } from './topics';

/** How often the text of a streaming reply is stored: a crash loses at most this much of it. */
const checkpointMs = 500;

/**
 * The topic (the user's own, else 404) and its bot, when a reply can start now: the bot is for the
 * user's groups, this node takes replies, the bot can run here, the user can pay, and no reply is
 * being written in the topic. Refused before anything is reserved.
 */
export async function replyableTopic(app: FastifyInstance, owner: Owner, topicId: string) {
  const topic = await topicForReply(app.db, owner, topicId);
  if (!topic) throw topicNotFound();
  const run = runnable(app, topic);
  if (run.refused === 'not_allowed') throw botNotForYou(topic.name);
  if (run.refused === 'shutting_down')
    throw new ApiError(
      503,
      'This server is restarting. Send your message again in a moment.',
      'SHUTTING_DOWN',
    );
  if (run.refused) throw new ApiError(409, 'This bot is not available right now.', 'BOT_INACTIVE');
  if (!topic.can_pay) throw insufficientBalance();
  if (topic.busy) throw replyInProgress();
  return { ...topic, provider: run.provider, price: Number(topic.price) };
}

/** Refused before anything is reserved: a bot without vision is never sent an image. */
export function refuseUnseen(topic: ReplyableTopic, files: { type: string }[]) {
  if (files.some((file) => isImage(file.type)) && !reachOf(topic.config).vision)
    throw new ApiError(
      422,
      `${topic.name} cannot see images. Remove the image, or ask a bot that can see images.`,
      'VISION_UNSUPPORTED',
      'files',
    );
}

type ReplyableTopic = Awaited<ReturnType<typeof replyableTopic>>;

/** The bot message as the reply's record: checkpointed (its lease renewed), then settled or released. */
function messageRecord(app: FastifyInstance, owner: Owner, botName: string, messageId: string): ReplyRecord {
  return {
    renewMs: checkpointMs,
    renew: (text) => checkpoint(app.db, messageId, text),
    settle: (text, free) =>
      settle(app.db, owner, { messageId, text, description: `Reply from ${botName}`, free }),
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
    /** The branch before the message answered, that message, and whether any of it carries files. */
    conversation: { history: Turn[]; text: string; messageId: string };
    carriesFiles: boolean;
    sofar?: { text: string; steps: Step[] };
  },
) {
  const { topic, started, sofar } = reply;
  const messageId = started.botMessageId;
  const prepared = await prepareReply(app, {
    owner: request.owner,
    bot: topic,
    provider: topic.provider,
    // A message, a regeneration and a continuation alike: in the topic's project, if it has one.
    conversation: { ...reply.conversation, project: topic.project },
    carriesFiles: reply.carriesFiles,
    steps: { tenant: request.owner.tenant, messageId },
    approvals: true,
    continuing: sofar && { text: sofar.text, steps: sofar.steps.length },
    record: messageRecord(app, request.owner, topic.name, messageId),
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
    .then(async (outcome) => live.emit(await lastEvent(app, started, outcome, live.steps())))
    .finally(() => app.liveReplies.finish(live));
  return live;
}

const stoppedCode = 'STOPPED';
const stoppedEvent = (ids: object) => ({ error: 'The reply was stopped.', code: stoppedCode, ...ids });

/** The reply's last event: done with its charge, or why it ended (the ids when it is kept). */
async function lastEvent(
  app: FastifyInstance,
  started: StartedReply,
  outcome: Outcome,
  steps: Step[],
): Promise<ReplyEvent> {
  const ids = {
    ...(started.userMessageId ? { userMessageId: started.userMessageId } : {}),
    botMessageId: started.botMessageId,
  };
  if (outcome.end === 'lost') return endedElsewhere(app, ids);
  if (outcome.end === 'complete') {
    const { citations, charge } = outcome;
    return {
      event: 'done',
      data: {
        ...ids,
        ...charge,
        ...(citations.length ? { citations } : {}),
        ...(steps.length ? { steps } : {}),
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
