import type { PromptDraft } from '../../machines/prompts';
import type { Prompt } from '../../machines/promptText';
import type { HttpClient } from './http';

/** The member's prompt library (`/api/v1/prompt`): their own prompts and the organization's. */
export function createPromptEndpoints(http: HttpClient) {
  const at = (id: string) => `/api/v1/prompt/${encodeURIComponent(id)}`;
  return {
    prompts: () => http.get<Prompt[]>('/api/v1/prompt'),
    addPrompt: (draft: PromptDraft) =>
      http.post<Prompt>('/api/v1/prompt', { ...draft }, { returnError: true }),
    editPrompt: (id: string, draft: PromptDraft) => http.patch<Prompt>(at(id), { ...draft }),
    deletePrompt: (id: string) => http.delete<unknown>(at(id)),
  };
}
