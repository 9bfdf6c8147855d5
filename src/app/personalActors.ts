import { fromCallback, fromPromise } from 'xstate';
import { type ImporterEvent, importerMachine } from '../../machines/importer';
import { memoriesMachine } from '../../machines/memories';
import { personalizationMachine } from '../../machines/personalization';
import { savedMemoryMachine } from '../../machines/savedMemory';
import { type HttpClient, HttpError } from '../api/http';
import { createPersonalEndpoints } from '../api/personalEndpoints';

/**
 * The machines of Profile → Personalization with their effects: the instructions and switch, the
 * memory list, a reply's "Saved to memory" Undo and the import of an export. Each screen runs its own
 * actor of them; `refreshConversations` shows imported conversations in the sidebar.
 */
export function createPersonalActors(http: HttpClient, refreshConversations: () => void) {
  const api = createPersonalEndpoints(http);
  // Projects may be unknown to the server (or unreadable): then nothing is offered to pick, and nothing named.
  const projects = () => api.projects().catch(() => []);
  return {
    personalization: personalizationMachine.provide({
      actors: {
        loadInstructions: fromPromise(() => api.instructions()),
        saveInstructions: fromPromise(({ input }) => api.saveInstructions(input)),
      },
    }),
    memories: memoriesMachine.provide({
      actors: {
        listMemories: fromPromise(async () => {
          const [memories, choices] = await Promise.all([api.memories(), projects()]);
          return { memories, projects: choices };
        }),
        addMemory: fromPromise(({ input }) => api.addMemory(input.text, input.project)),
        editMemory: fromPromise(({ input }) => api.editMemory(input.id, input.text)),
        deleteMemory: fromPromise(async ({ input }) => {
          await api.deleteMemory(input.id);
          return input.id;
        }),
        forgetAll: fromPromise(() => api.forgetMemories()),
      },
    }),
    savedMemory: savedMemoryMachine.provide({
      actors: {
        // A memory already gone (deleted in the list, or Undone on another device) is as good as undone.
        forgetMemory: fromPromise(({ input }) =>
          api.deleteMemory(input.id).catch((error: unknown) => {
            if (!(error instanceof HttpError && error.status === 404)) throw error;
          }),
        ),
      },
    }),
    importer: importerMachine.provide({
      actors: {
        listProjects: fromCallback<ImporterEvent>(({ sendBack }) => {
          void projects().then((choices) => sendBack({ type: 'PROJECTS', projects: choices }));
        }),
        // The upload's progress from its request's events; leaving stops it.
        importFile: fromCallback<ImporterEvent, { file: Blob; name: string; project: string | null }>(
          ({ input, sendBack }) => {
            const controller = new AbortController();
            api
              .importConversations(
                input.file,
                input.name,
                input.project,
                (loaded, total) => sendBack({ type: 'PROGRESS', loaded, total }),
                controller.signal,
              )
              .then(
                (result) => sendBack({ type: 'IMPORTED', result }),
                (error: unknown) => {
                  if (controller.signal.aborted) return;
                  const message = error instanceof HttpError ? error.message : String(error);
                  sendBack({ type: 'IMPORT_FAILED', message });
                },
              );
            return () => controller.abort();
          },
        ),
      },
      actions: { announceImported: refreshConversations },
    }),
  };
}
