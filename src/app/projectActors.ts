import { type ActorRefFrom, createActor, fromPromise, type InspectionEvent, type Observer } from 'xstate';
import type { conversationsMachine } from '../../machines/conversations';
import { projectsMachine } from '../../machines/projects';
import type { HttpClient } from '../api/http';
import { createProjectEndpoints } from '../api/projectEndpoints';
import type { WorkspaceEndpoints } from '../api/workspaceEndpoints';
import { createAttachments } from './attachmentActors';

/**
 * The sidebar's projects with their effects (issue 33): a project made is opened, a deleted one's
 * conversations are listed afresh. And the project form's files, uploaded like a message's.
 */
export function createProjectActors(
  http: HttpClient,
  api: WorkspaceEndpoints,
  conversations: ActorRefFrom<typeof conversationsMachine>,
  inspect?: Observer<InspectionEvent>,
) {
  const projectApi = createProjectEndpoints(http);
  const projects = createActor(
    projectsMachine.provide({
      actors: {
        fetchProjects: fromPromise(() => projectApi.projects()),
        fetchChoices: fromPromise(() => projectApi.projectChoices()),
        saveProject: fromPromise(({ input }) => projectApi.saveProject(input.id, input.draft)),
        deleteProject: fromPromise(({ input }) => projectApi.deleteProject(input.id, input.conversations)),
      },
      actions: {
        showProject: (_, { project }) =>
          conversations.send({ type: 'FILTER', filter: { project: project._id, archived: false } }),
        leaveProject: (_, { id }) => {
          const { filter } = conversations.getSnapshot().context;
          if (filter.project === id)
            conversations.send({ type: 'FILTER', filter: { project: null, archived: false } });
          else conversations.send({ type: 'REFRESH' });
        },
      },
    }),
    { inspect },
  );
  // A project's file may be another message's too: taken off the project, the file itself is kept.
  const projectFiles = createAttachments(api).provide({ actions: { discardUpload: () => {} } });
  return { projects, projectFiles };
}
