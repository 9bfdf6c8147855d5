import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import type { SavedMemory } from '../../../machines/savedMemory';
import { useWorkspace } from '../../app/useWorkspace';
import { Bdi } from '../../components/Bdi';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';

/** A `remember` step's outcome: "Saved to memory" with the text and Undo, then that it was removed. */
export function SavedMemoryNote({ memory }: { memory: SavedMemory }) {
  const { personal, inspect } = useWorkspace();
  const actor = useActorRef(personal.savedMemory, { input: memory, inspect });
  const t = useT();
  const snapshot = useSelector(actor, (state) => state);
  const note = useRef<HTMLParagraphElement>(null);
  const removed = snapshot.matches('removed');
  // Undo is gone with the memory: focus goes to the sentence that says so.
  useEffect(() => {
    if (removed) note.current?.focus();
  }, [removed]);
  if (removed)
    return (
      <p ref={note} className="saved-memory" role="status" tabIndex={-1}>
        <T>Removed from memory</T>: <Bdi text={memory.text} />
      </p>
    );
  return (
    <div className="saved-memory">
      <p>
        <strong>
          <T>Saved to memory</T>
        </strong>
        : <Bdi text={memory.text} />
      </p>
      <button
        type="button"
        className="button ghost small"
        disabled={snapshot.matches('undoing')}
        onClick={() => actor.send({ type: 'UNDO' })}
      >
        <T>Undo</T>
      </button>
      {snapshot.context.error && (
        <p className="tool-step-error" role="alert">
          {t(snapshot.context.error)}
        </p>
      )}
    </div>
  );
}
