import { createActor, fromPromise, type InspectionEvent, type Observer } from 'xstate';
import { commandPaletteMachine } from '../../machines/commandPalette';
import type { HttpClient } from '../api/http';
import { createWorkspaceEndpoints } from '../api/workspaceEndpoints';
import type { Workspace } from './createWorkspaceActors';

/** Every conversation, archived or in a project: the palette searches them all, as the sidebar's search does. */
const everywhere = { project: null, archived: false };

/**
 * The command palette's machine with its effects, loaded with the palette on first use: the
 * conversation search is the sidebar's (GET /api/v1/topic?q=), aborted when the words change.
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
  palette.start();
  return { palette };
}

export type PaletteActors = ReturnType<typeof createPaletteActors>;

const created = new WeakMap<Workspace, PaletteActors>();

/** The palette's actors of this workspace, made on first use and kept while it lasts. */
export function paletteActorsOf(workspace: Workspace, http: HttpClient): PaletteActors {
  const actors = created.get(workspace) ?? createPaletteActors(http, workspace.inspect);
  created.set(workspace, actors);
  return actors;
}
