import { fromCallback } from 'xstate';
import type { TopicEvent } from '../../machines/topic';
import { HttpError } from '../api/http';
import type { WorkspaceEndpoints } from '../api/workspaceEndpoints';

/**
 * The topic machine's `streamReply`: posts the message and turns the server-sent events into machine
 * events, each stored message stamped with the time it arrived. `onStopped` hears when a reply left
 * early has been stopped on the server.
 */
export function createStreamReply(api: WorkspaceEndpoints, onStopped: () => void) {
  return fromCallback<TopicEvent, { topicId: string; text: string }>(({ input, sendBack }) => {
    const controller = new AbortController();
    const now = () => new Date().toISOString();
    let finished = false;
    (async () => {
      try {
        for await (const event of api.sendMessage(input.topicId, input.text, controller.signal)) {
          if (event.type === 'message')
            sendBack({ type: 'STORED', userMessageId: event.data.userMessageId, createdAt: now() });
          else if (event.type === 'token') sendBack({ type: 'TOKEN', text: event.data.text });
          else if (event.type === 'done') {
            finished = true;
            sendBack({ type: 'DONE', ...event.data, createdAt: now() });
          } else {
            finished = true;
            sendBack({
              type: 'FAILED',
              error: { message: event.data.error, code: event.data.code },
              botMessageId: event.data.botMessageId,
            });
          }
        }
        if (!finished && !controller.signal.aborted) {
          sendBack({
            type: 'FAILED',
            error: { message: 'The reply ended unexpectedly.', code: 'STREAM_ENDED' },
          });
        }
      } catch (error) {
        if (controller.signal.aborted) return;
        const failure =
          error instanceof HttpError
            ? error
            : new HttpError(0, 'The reply could not be received.', 'NETWORK');
        sendBack({ type: 'FAILED', error: { message: failure.message, code: failure.code } });
      }
    })();
    // Leaving the reply state before its end (Stop, or leaving the chat) stops the reply on the
    // server, which keeps it as far as it got; then the request is dropped.
    return () => {
      if (!finished) api.stopReply(input.topicId).finally(onStopped);
      controller.abort();
    };
  });
}
