import { fromPromise } from 'xstate';
import { promptsMachine } from '../../machines/prompts';
import { slashMenuMachine } from '../../machines/slashMenu';
import type { HttpClient } from '../api/http';
import { createPromptEndpoints } from '../api/promptEndpoints';

/**
 * The prompt library's machines with their effects, loaded with the code that shows them (Profile →
 * Prompts, the message box's `/` menu): each screen runs its own actor of them.
 */
function createPromptMachines(http: HttpClient) {
  const api = createPromptEndpoints(http);
  const listPrompts = fromPromise(() => api.prompts());
  return {
    prompts: promptsMachine.provide({
      actors: {
        listPrompts,
        addPrompt: fromPromise(({ input }) => api.addPrompt(input)),
        editPrompt: fromPromise(({ input }) => api.editPrompt(input.id, input.draft)),
        deletePrompt: fromPromise(async ({ input }) => {
          await api.deletePrompt(input.id);
          return input.id;
        }),
      },
    }),
    slashMenu: slashMenuMachine.provide({ actors: { listPrompts } }),
  };
}

const made = new WeakMap<HttpClient, ReturnType<typeof createPromptMachines>>();

/** The prompt machines of this client, made on first use. */
export function promptMachinesOf(http: HttpClient) {
  const machines = made.get(http) ?? createPromptMachines(http);
  made.set(http, machines);
  return machines;
}
