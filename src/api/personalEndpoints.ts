import type { ImportResult } from '../../machines/importer';
import type { Memory, ProjectChoice } from '../../machines/memories';
import type { Instructions } from '../../machines/personalization';
import type { HttpClient, UploadProgress } from './http';

/** The member's own shaping of Parley: custom instructions, memory, and bringing their history in. */
export function createPersonalEndpoints(http: HttpClient) {
  return {
    instructions: () => http.get<Instructions>('/api/v1/user/me/instructions'),
    /** Saves the parts given; the server answers them as they now stand. */
    saveInstructions: (change: Partial<Instructions>) =>
      http.replace<Instructions>('/api/v1/user/me/instructions', change),
    memories: () => http.get<Memory[]>('/api/v1/memory'),
    addMemory: (text: string, project: string | null) =>
      http.post<Memory>('/api/v1/memory', project ? { text, project } : { text }, { returnError: true }),
    editMemory: (id: string, text: string) =>
      http.patch<Memory>(`/api/v1/memory/${encodeURIComponent(id)}`, { text }),
    deleteMemory: (id: string) => http.delete<unknown>(`/api/v1/memory/${encodeURIComponent(id)}`),
    forgetMemories: () => http.delete<unknown>('/api/v1/memory'),
    /** The member's own and shared projects, for a picker: their ids and names. */
    projects: async (): Promise<ProjectChoice[]> =>
      (await http.get<ProjectChoice[]>('/api/v1/project')).map(({ _id, name }) => ({ _id, name })),
    /** Uploads an export (multipart `file`, and `project`) with its progress. */
    importConversations: (
      file: Blob,
      name: string,
      project: string | null,
      onProgress: UploadProgress,
      signal: AbortSignal,
    ) => {
      const body = new FormData();
      body.append('file', file, name);
      if (project) body.append('project', project);
      return http.upload<ImportResult>('/api/v1/import', body, onProgress, signal);
    },
  };
}

export type PersonalEndpoints = ReturnType<typeof createPersonalEndpoints>;
