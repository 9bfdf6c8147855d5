import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import type { ProjectRecord } from '../../../machines/projects';
import { useWorkspace } from '../../app/useWorkspace';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';

/** A project's name, and "Shared" when it is another member's, shared with a group of the member's. */
export function ProjectName({ project }: { project: ProjectRecord }) {
  return (
    <>
      <bdi className="project-name">{project.name}</bdi>
      {project.shared && (
        <span className="project-shared">
          <T>Shared</T>
        </span>
      )}
    </>
  );
}

/** The member's projects above the conversations: each opens its conversations; New project makes one. */
export function ProjectsSection() {
  const { projects, conversations } = useWorkspace();
  const t = useT();
  const items = useSelector(projects, (snapshot) => snapshot.context.items);
  const failed = useSelector(projects, (snapshot) => snapshot.matches({ list: 'failed' }));
  const error = useSelector(projects, (snapshot) => snapshot.context.error);

  useEffect(() => {
    projects.send({ type: 'LOAD' });
  }, [projects]);

  return (
    <section className="projects" aria-labelledby="projects-heading">
      <div className="projects-top">
        <h2 id="projects-heading" className="conversation-group">
          <T>Projects</T>
        </h2>
        <button type="button" className="button small" onClick={() => projects.send({ type: 'NEW' })}>
          <T>New project</T>
        </button>
      </div>
      {failed && (
        <div className="error-box sidebar-error" role="alert">
          <span>{t(error ?? 'Could not load your projects.')}</span>
          <button type="button" className="button small" onClick={() => projects.send({ type: 'RETRY' })}>
            <T>Retry</T>
          </button>
        </div>
      )}
      {items.length > 0 && (
        <ul className="project-list">
          {items.map((project) => (
            <li key={project._id}>
              <button
                type="button"
                className="project-link"
                onClick={() =>
                  conversations.send({ type: 'FILTER', filter: { project: project._id, archived: false } })
                }
              >
                <ProjectName project={project} />
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
