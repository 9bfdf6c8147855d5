import { fromCallback } from 'xstate';
import type { TopicEvent } from '../../machines/topic';
import type { Endpoints } from '../api/endpoints';
import { HttpError } from '../api/http';

/** The topic machine's `streamReply`: posts the message and turns the server-sent events into machine events. */
export function createStreamReply(api: Endpoints) {
  return fromCallback<TopicEvent, { topicId: string; text: string }>(({ input, sendBack }) => {
    const controller = new AbortController();
    let finished = false;
    (async () => {
      try {
        for await (const event of api.sendMessage(input.topicId, input.text, controller.signal)) {
          if (event.type === 'message') sendBack({ type: 'STORED', userMessageId: event.data.userMessageId });
          else if (event.type === 'token') sendBack({ type: 'TOKEN', text: event.data.text });
          else if (event.type === 'done') {
            finished = true;
            sendBack({ type: 'DONE', ...event.data });
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
      if (!finished) api.stopReply(input.topicId);
      controller.abort();
    };
  });
}
