import type {
  ProjectChoices,
  ProjectConversations,
  ProjectDraft,
  ProjectRecord,
} from '../../machines/projects';
import type { HttpClient } from './http';

const projectPath = (id: string) => `/api/v1/project/${encodeURIComponent(id)}`;

/**
 * The member's projects (issue 33): list, create, change, delete, and what the form offers. A project's
 * `name` travels RSA-encrypted like every top-level `name` (spec §7); the HTTP client sees to it.
 */
export function createProjectEndpoints(http: HttpClient) {
  return {
    projects: () => http.get<ProjectRecord[]>('/api/v1/project'),
    projectChoices: () => http.get<ProjectChoices>('/api/v1/project/choices'),
    /** Creates the project (id null) or changes it (its owner only); answers it as stored. */
    saveProject: (id: string | null, draft: ProjectDraft) =>
      id === null
        ? http.post<ProjectRecord>('/api/v1/project', { ...draft }, { returnError: true })
        : http.patch<ProjectRecord>(projectPath(id), { ...draft }),
    /** Deletes the project, with its conversations or moving them out of it. */
    deleteProject: (id: string, conversations: ProjectConversations) =>
      http.delete<unknown>(projectPath(id), { conversations }),
  };
}
