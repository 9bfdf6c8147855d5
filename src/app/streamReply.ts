import { fromCallback } from 'xstate';
import type { ReplyControlEvent, ReplyEvent, ReplyRequest } from '../../machines/reply';
import { HttpError } from '../api/http';
import type { StreamEvent, WorkspaceEndpoints } from '../api/workspaceEndpoints';

type SendBack = (event: ReplyEvent) => void;

/**
 * Turns a reply's server-sent events into the topic machine's events, each stored message stamped
 * with the time it arrived. A connection lost once the server took the message is DISCONNECTED: the
 * reply goes on there and can be followed again; lost before, the message never arrived.
 */
async function relay(
  events: AsyncGenerator<StreamEvent>,
  sendBack: SendBack,
  signal: AbortSignal,
  started: boolean,
) {
  const now = () => new Date().toISOString();
  let taken = started;
  let received = false;
  try {
    for await (const event of events) {
      received = true;
      if (event.type === 'message') {
        taken = true;
        sendBack({ type: 'STORED', ...event.data, createdAt: now() });
      } else if (event.type === 'token') sendBack({ type: 'TOKEN', text: event.data.text, end: event.id });
      else if (event.type === 'step') sendBack({ type: 'STEP', ...event.data });
      else if (event.type === 'done') return sendBack({ type: 'DONE', ...event.data, createdAt: now() });
      else
        return sendBack({
          type: 'FAILED',
          error: { message: event.data.error, code: event.data.code },
          botMessageId: event.data.botMessageId,
        });
    }
    if (signal.aborted) return;
    // Following: an empty answer means nothing is being written any more.
    if (started && !received) return sendBack({ type: 'NOT_STREAMING' });
    sendBack(taken ? { type: 'DISCONNECTED' } : lostBeforeStart());
  } catch (error) {
    if (signal.aborted) return;
    const refused = error instanceof HttpError && error.status > 0 ? error : null;
    if (refused) sendBack({ type: 'FAILED', error: { message: refused.message, code: refused.code } });
    else sendBack(taken ? { type: 'DISCONNECTED' } : lostBeforeStart());
  }
}

const lostBeforeStart = (): ReplyEvent => ({
  type: 'FAILED',
  error: { message: 'The reply could not be received.', code: 'NETWORK' },
});

/**
 * The topic machine's `streamReply`: sends the message (or asks again, or to go on) and relays the
 * reply. Leaving only drops the connection: the server goes on writing, and Stop is its own call.
 */
export function createStreamReply(api: WorkspaceEndpoints) {
  return fromCallback<ReplyEvent, { topicId: string; request: ReplyRequest }>(({ input, sendBack }) => {
    const controller = new AbortController();
    const { topicId, request } = input;
    const events =
      request.kind === 'send'
        ? api.sendMessage(
            topicId,
            request.text,
            request.parent,
            controller.signal,
            request.files,
            request.webSearch,
          )
        : request.kind === 'regenerate'
          ? api.regenerate(topicId, request.messageId, controller.signal, request.model)
          : api.continueReply(topicId, request.messageId, controller.signal);
    relay(events, sendBack, controller.signal, false);
    return () => controller.abort();
  });
}

/** The topic machine's `followReply`: the reply being written, from what is on screen on. */
export function createFollowReply(api: WorkspaceEndpoints) {
  return fromCallback<ReplyEvent, { topicId: string; offset: number }>(({ input, sendBack }) => {
    const controller = new AbortController();
    relay(api.follow(input.topicId, input.offset, controller.signal), sendBack, controller.signal, true);
    return () => controller.abort();
  });
}

/** The topic machine's `watchNetwork`: ONLINE when the browser says the network is back. */
export const watchNetwork = fromCallback<ReplyControlEvent>(({ sendBack }) => {
  const online = () => sendBack({ type: 'ONLINE' });
  window.addEventListener('online', online);
  return () => window.removeEventListener('online', online);
});

/** How often, and how far apart, Stop asks again for a reply the server has not confirmed yet. */
const unconfirmedStops = 5;
const unconfirmedStopGapMs = 400;

/**
 * The topic machine's `stopReply`. A reply stopped before the server confirmed it may still be on
 * its way (the message was sent, the answer not read): Stop asks again until it catches it, so it is
 * not left running unattended. Answers the topic as the server keeps it; a stop call that fails
 * (the network) fails it: the machine then follows the reply again.
 */
export async function stopReply(api: WorkspaceEndpoints, input: { topicId: string; started: boolean }) {
  for (let attempt = 1; ; attempt += 1) {
    const answer = await api.stopReply(input.topicId);
    if (answer.stopped || input.started || attempt === unconfirmedStops) break;
    await new Promise((resolve) => setTimeout(resolve, unconfirmedStopGapMs));
  }
  return api.topic(input.topicId);
}
