import { fromPromise } from 'xstate';
import { sharedConversationMachine } from '../../machines/sharedConversation';
import type { Endpoints } from '../api/endpoints';
import type { AppEnvironment } from './createAppActors';

/**
 * The page of a shared link (each such page runs its own actor, told whether someone is logged in):
 * a visitor logs in first, and comes back to continue; a member's new conversation opens. In its own
 * chunk, with that page: the landing page does not carry it.
 */
export function createSharedConversation({
  api,
  env,
  checkSession,
}: {
  api: Endpoints;
  env: Pick<AppEnvironment, 'navigate'>;
  /** Tells the session where to come back to after the login (it lands the visitor on landing). */
  checkSession: (returnUrl: string) => void;
}) {
  return sharedConversationMachine.provide({
    actors: {
      fetchShare: fromPromise(({ input }) => api.share(input.shareId)),
      continueShare: fromPromise(({ input }) => api.continueShare(input.shareId)),
    },
    actions: {
      goToLogin: ({ context }) => {
        const back = `/s/${encodeURIComponent(context.shareId ?? '')}?continue=1`;
        checkSession(back);
        // Then the visitor goes on to the login form itself.
        env.navigate(`/login?returnUrl=${encodeURIComponent(back)}`, {});
      },
      openConversation: ({ context, event }) => {
        const created = (event as unknown as { output: { _id: string } }).output;
        env.navigate(`/topics/${encodeURIComponent(created._id)}`, { replace: context.resume });
      },
    },
  });
}

export type SharedConversationMachine = ReturnType<typeof createSharedConversation>;
