import { type ActorRefFrom, createActor, fromPromise, type InspectionEvent, type Observer } from 'xstate';
import type { botsMachine } from '../../machines/bots';
import { memberBotsMachine } from '../../machines/memberBots';
import type { HttpClient } from '../api/http';
import { createMemberBotEndpoints } from '../api/memberBotEndpoints';
import type { WorkspaceEndpoints } from '../api/workspaceEndpoints';
import { createAttachments } from './attachmentActors';

/**
 * The member's own bots (issue 34) with their effects: a bot made, changed or deleted has the
 * catalogue fetched afresh. And the form's files, uploaded like a message's.
 */
export function createMemberBotActors(
  http: HttpClient,
  api: WorkspaceEndpoints,
  bots: ActorRefFrom<typeof botsMachine>,
  inspect?: Observer<InspectionEvent>,
) {
  const botApi = createMemberBotEndpoints(http);
  const memberBots = createActor(
    memberBotsMachine.provide({
      actors: {
        fetchMemberBots: fromPromise(() => botApi.memberBots()),
        fetchBotChoices: fromPromise(({ signal }) => botApi.memberBotChoices(signal)),
        saveMemberBot: fromPromise(({ input }) => botApi.saveMemberBot(input.id, input.draft)),
        deleteMemberBot: fromPromise(({ input }) => botApi.deleteMemberBot(input.id)),
      },
      actions: { announceBotsChanged: () => bots.send({ type: 'RELOAD' }) },
    }),
    { inspect },
  );
  // A bot's file may be a message's too: taken off the bot, the file itself is kept.
  const memberBotFiles = createAttachments(api).provide({ actions: { discardUpload: () => {} } });
  return { memberBots, memberBotFiles };
}
