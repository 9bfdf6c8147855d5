import { useSelector } from '@xstate/react';
import { useId, useState } from 'react';
import { Link } from 'wouter';
import { activeBots } from '../../../machines/bots';
import type { ProjectRecord } from '../../../machines/projects';
import { useActors } from '../../app/ActorsContext';
import { useWorkspace } from '../../app/useWorkspace';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';
import { ProjectName } from './ProjectsSection';

/** Back to every conversation, from a project or the archived ones. */
export function AllConversations() {
  const { conversations } = useWorkspace();
  return (
    <button
      type="button"
      className="button small all-conversations"
      onClick={() => conversations.send({ type: 'FILTER', filter: { project: null, archived: false } })}
    >
      <T>All conversations</T>
    </button>
  );
}

/**
 * An open project at a glance above its conversations: its instructions and files, New chat in it (with
 * its default bot, else the bot chosen here), and Edit and Delete for its owner (Details for the others).
 */
export function ProjectOverview({ project }: { project: ProjectRecord }) {
  const { projects, conversations } = useWorkspace();
  const { bots } = useActors();
  const t = useT();
  const botField = useId();
  const available = activeBots(useSelector(bots, (snapshot) => snapshot.context.bots));
  const [chosen, setChosen] = useState('');
  const bot = project.bot ?? (chosen || available[0]?._id || '');
  const closeDrawer = () => conversations.send({ type: 'CLOSE_DRAWER' });

  return (
    <section className="project-overview" aria-labelledby="project-heading">
      <AllConversations />
      <h2 id="project-heading" className="project-heading">
        <ProjectName project={project} />
      </h2>
      {project.instructions && <p className="project-instructions">{project.instructions}</p>}
      {project.files.length > 0 && (
        <ul className="project-files" aria-label={t('Project files')}>
          {project.files.map((file) => (
            <li key={file._id}>
              <bdi>{file.name}</bdi>
            </li>
          ))}
        </ul>
      )}
      {!project.bot && available.length > 0 && (
        <div className="field">
          <label htmlFor={botField}>
            <T>Bot</T>
          </label>
          <select id={botField} value={bot} onChange={(event) => setChosen(event.target.value)}>
            {available.map((item) => (
              <option key={item._id} value={item._id}>
                {item.name}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="project-actions">
        {bot && (
          <Link
            href={`/topics/new?bot=${encodeURIComponent(bot)}&project=${encodeURIComponent(project._id)}`}
            className="button primary small"
            onClick={closeDrawer}
          >
            <T>New chat in project</T>
          </Link>
        )}
        {project.shared ? (
          <button
            type="button"
            className="button small"
            onClick={() => projects.send({ type: 'EDIT', project })}
          >
            <T>Details</T>
          </button>
        ) : (
          <>
            <button
              type="button"
              className="button small"
              onClick={() => projects.send({ type: 'EDIT', project })}
            >
              <T>Edit project</T>
            </button>
            <button
              type="button"
              className="button small danger"
              onClick={() => projects.send({ type: 'ASK_DELETE', project })}
            >
              <T>Delete project</T>
            </button>
          </>
        )}
      </div>
    </section>
  );
}
