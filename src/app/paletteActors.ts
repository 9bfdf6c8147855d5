import { createActor, fromPromise, type InspectionEvent, type Observer } from 'xstate';
import { commandPaletteMachine } from '../../machines/commandPalette';
import type { Prompt } from '../../machines/promptText';
import { createResourceMachine } from '../../machines/resource';
import type { HttpClient } from '../api/http';
import { createPromptEndpoints } from '../api/promptEndpoints';
import { createWorkspaceEndpoints } from '../api/workspaceEndpoints';
import type { Workspace } from './createWorkspaceActors';

/** Every conversation, archived or in a project: the palette searches them all, as the sidebar's search does. */
const everywhere = { project: null, archived: false };

/**
 * The command palette's machine with its effects, loaded with the palette on first use: the
 * conversation search is the sidebar's (GET /api/v1/topic?q=), aborted when the words change; and the
 * saved prompts (GET /api/v1/prompt).
 */
function createPaletteActors(http: HttpClient, inspect?: Observer<InspectionEvent>) {
  const api = createWorkspaceEndpoints(http);
  const palette = createActor(
    commandPaletteMachine.provide({
      actors: {
        searchConversations: fromPromise(
          async ({ input, signal }) => (await api.topicPage(input.query, '', everywhere, signal)).items,
        ),
      },
    }),
    { inspect },
  );
  /** The saved prompts it offers, asked for afresh each time it opens. */
  const prompts = createActor(
    createResourceMachine<Prompt[]>().provide({
      actors: { fetch: fromPromise(() => createPromptEndpoints(http).prompts()) },
    }),
    { inspect },
  );
  palette.start();
  prompts.start();
  return { palette, prompts };
}

export type PaletteActors = ReturnType<typeof createPaletteActors>;

const created = new WeakMap<Workspace, PaletteActors>();

/** The palette's actors of this workspace, made on first use and kept while it lasts. */
export function paletteActorsOf(workspace: Workspace, http: HttpClient): PaletteActors {
  const actors = created.get(workspace) ?? createPaletteActors(http, workspace.inspect);
  created.set(workspace, actors);
  return actors;
}
