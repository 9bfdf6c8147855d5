import { useSelector } from '@xstate/react';
import { useId, useState } from 'react';
import { useWorkspace } from '../../app/useWorkspace';
import { Bdi } from '../../components/Bdi';
import { Dialog } from '../../components/Dialog';
import { FormError } from '../../components/FormError';
import { T } from '../../i18n/T';
import { ProjectName } from './ProjectsSection';

/** Moves a conversation into one of the member's projects, or out of its own (No project). */
export function MoveDialog() {
  const { conversations, projects } = useWorkspace();
  const descriptionId = useId();
  const target = useSelector(conversations, (snapshot) => snapshot.context.target);
  const problem = useSelector(conversations, (snapshot) => snapshot.context.editError);
  const moving = useSelector(conversations, (snapshot) => snapshot.matches({ arrange: 'moving' }));
  const current = useSelector(
    conversations,
    (snapshot) => snapshot.context.items.find((item) => item._id === target?._id)?.project ?? null,
  );
  const items = useSelector(projects, (snapshot) => snapshot.context.items);
  const [chosen, setChosen] = useState<string | null>(current);
  const cancel = () => conversations.send({ type: 'CANCEL' });

  return (
    <Dialog title="Move to project" role="dialog" describedBy={descriptionId} onClose={cancel}>
      <p id={descriptionId}>
        <strong>
          <Bdi text={target?.title ?? ''} />
        </strong>
      </p>
      <fieldset className="move-choices" disabled={moving}>
        <legend>
          <T>Project</T>
        </legend>
        {[null, ...items.map((project) => project._id)].map((id) => {
          const project = items.find((item) => item._id === id);
          return (
            <label key={id ?? ''} className="choice share-choice">
              <input type="radio" name="project" checked={chosen === id} onChange={() => setChosen(id)} />
              <span>{project ? <ProjectName project={project} /> : <T>No project</T>}</span>
            </label>
          );
        })}
      </fieldset>
      <FormError message={problem} />
      <div className="actions">
        <button type="button" className="button" onClick={cancel}>
          <T>Cancel</T>
        </button>
        <button
          type="button"
          className="button primary"
          disabled={moving}
          onClick={() => conversations.send({ type: 'MOVE', project: chosen })}
        >
          <T>Move</T>
        </button>
      </div>
    </Dialog>
  );
}
