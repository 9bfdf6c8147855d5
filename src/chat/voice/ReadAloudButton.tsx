import { useSelector } from '@xstate/react';
import { useActors } from '../../app/ActorsContext';
import { useWorkspace } from '../../app/useWorkspace';
import { voiceActorsOf } from '../../app/voiceActors';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';
import { speakableText } from './speakableText';
import './voice.css';

/**
 * Read aloud on a reply: the organization's speech in the member's voice when it has a speech model,
 * else the browser's own; Stop while it reads. One reply is read at a time.
 */
export default function ReadAloudButton({ messageId, text }: { messageId: string; text: string }) {
  const { services } = useActors();
  const workspace = useWorkspace();
  const { readAloud } = voiceActorsOf(workspace, services.http, services.env.storage);
  const t = useT();
  const server = useSelector(
    workspace.organizationDetails,
    (state) => state.context.data?.voice?.speech === true,
  );
  const mine = useSelector(readAloud, (snapshot) => snapshot.context.messageId === messageId);
  const state = useSelector(readAloud, (snapshot) => (mine ? snapshot.value : 'idle'));
  const problem = useSelector(readAloud, (snapshot) => snapshot.context.problem);

  if (state !== 'idle' && state !== 'failed')
    return (
      <button
        type="button"
        className="button small ghost"
        aria-busy={state === 'fetching'}
        onClick={() => readAloud.send({ type: 'STOP' })}
      >
        <T>Stop reading</T>
      </button>
    );
  // A failure is said beside Read aloud, which tries again.
  return (
    <>
      <button
        type="button"
        className="button small ghost"
        onClick={() => readAloud.send({ type: 'READ', messageId, text: speakableText(text), server })}
      >
        <T>Read aloud</T>
      </button>
      {state === 'failed' && (
        <span className="voice-problem" role="alert">
          {problem ? t(problem) : null}{' '}
          <button
            type="button"
            className="button small ghost"
            onClick={() => readAloud.send({ type: 'DISMISS' })}
          >
            <T>Dismiss</T>
          </button>
        </span>
      )}
    </>
  );
}
