import { type ActorRefFrom, createActor, fromPromise, type InspectionEvent, type Observer } from 'xstate';
import { apiKeysMachine } from '../../machines/apiKeys';
import { activeBots, type botsMachine } from '../../machines/bots';
import { chatModelMachine } from '../../machines/chatModel';
import { citationsMachine } from '../../machines/citations';
import { conversationsMachine } from '../../machines/conversations';
import { feedbackMachine } from '../../machines/feedback';
import type { OrganizationRecord } from '../../machines/organization';
import { type BillingRecord, createResourceMachine, type NotificationRecord } from '../../machines/resource';
import type { sessionMachine } from '../../machines/session';
import { shareMachine } from '../../machines/share';
import { sidePanelMachine } from '../../machines/sidePanel';
import { themeMachine } from '../../machines/theme';
import { topicMachine } from '../../machines/topic';
import type { HttpClient } from '../api/http';
import { createWorkspaceEndpoints } from '../api/workspaceEndpoints';
import { createAttachments, createFileAccess } from './attachmentActors';
import type { AppEnvironment } from './createAppActors';
import { createMemberBotActors } from './memberBotActors';
import { createPersonalActors } from './personalActors';
import { createProjectActors } from './projectActors';
import type { StoredValues } from './storedValues';
import { createFollowReply, createStreamReply, stopReply, watchNetwork } from './streamReply';
import { themeActions } from './themeActions';

export interface WorkspaceDependencies {
  http: HttpClient;
  env: Pick<AppEnvironment, 'navigate' | 'saveFile' | 'applyTheme'> & {
    applyBrand: (color: string | null) => void;
  };
  stored: StoredValues;
  session: ActorRefFrom<typeof sessionMachine>;
  bots: Bots;
  /** Asks for the organization's record. */
  organization: () => Promise<OrganizationRecord>;
  inspect?: Observer<InspectionEvent>;
}

/** An error the chat tells apart by its code, as it does the server's. */
const coded = (message: string, code: string) => Object.assign(new Error(message), { code });

type Bots = ActorRefFrom<typeof botsMachine>;

/** The catalogue once loaded (or failed): loaded once and reused, a list that failed is asked for again. */
function loadedBots(bots: Bots): Promise<ReturnType<Bots['getSnapshot']>> {
  bots.send({ type: 'LOAD' });
  return new Promise((resolve) => {
    const settled = (snapshot: ReturnType<Bots['getSnapshot']>) =>
      snapshot.matches('loaded') || snapshot.matches('failed');
    if (settled(bots.getSnapshot())) return resolve(bots.getSnapshot());
    const subscription = bots.subscribe((snapshot) => {
      if (!settled(snapshot)) return;
      subscription.unsubscribe();
      resolve(snapshot);
    });
  });
}

/** Settles once the catalogue has the bot, active; else fails with the reason. */
async function checkBot(bots: Bots, botId: string) {
  const snapshot = await loadedBots(bots);
  if (snapshot.matches('failed')) throw new Error(snapshot.context.error ?? 'Could not load the bots');
  const bot = snapshot.context.bots.find((item) => item._id === botId);
  if (!bot) throw coded('This bot does not exist.', 'BOT_NOT_FOUND');
  if (!activeBots([bot]).length) throw coded('This bot is not available right now.', 'BOT_INACTIVE');
}

/**
 * The logged-in half of the composition root: the side panel, the balance and notifications it shows,
 * the conversations of the sidebar, the colour scheme, and the chat's machine with its effects.
 * Created once, with the first logged-in screen.
 */
export function createWorkspaceActors({
  http,
  env,
  stored,
  session,
  bots,
  organization,
  inspect,
}: WorkspaceDependencies) {
  const api = createWorkspaceEndpoints(http);
  const sidePanel = createActor(sidePanelMachine, { inspect });

  /** The organization as the logged-in screens use it: its colour, whether messages can be translated. */
  const organizationDetails = createActor(
    createResourceMachine<OrganizationRecord>().provide({
      actors: { fetch: fromPromise(organization) },
    }),
    { inspect },
  );
  organizationDetails.subscribe((snapshot) => {
    if (snapshot.context.data) env.applyBrand(snapshot.context.data.brandColor ?? null);
  });

  /** Server data the side panel shows and changes, each behind the same small machine. */
  const billing = createActor(
    createResourceMachine<BillingRecord>().provide({
      actors: {
        fetch: fromPromise(() => {
          const user = session.getSnapshot().context.user;
          return user ? api.billing(user._id) : Promise.reject(new Error('Not logged in'));
        }),
      },
    }),
    { inspect },
  );
  /** A change is the id of the notification to mark read. */
  const notifications = createActor(
    createResourceMachine<NotificationRecord[], string>().provide({
      actors: {
        fetch: fromPromise(() => api.notifications()),
        change: fromPromise(({ input }) => api.markNotificationRead(input.change)),
      },
    }),
    { inspect },
  );
  const conversations = createActor(
    conversationsMachine.provide({
      actors: {
        fetchPage: fromPromise(({ input, signal }) =>
          api.topicPage(input.query, input.cursor, input.filter, signal),
        ),
        changeConversation: fromPromise(({ input }) => api.changeTopic(input.id, input.change)),
        renameConversation: fromPromise(
          async ({ input }) => (await api.renameTopic(input.id, input.title)).title,
        ),
        deleteConversation: fromPromise(({ input }) => api.deleteTopic(input.id)),
        exportConversation: fromPromise(async ({ input }) => {
          const file = await api.exportTopic(input.id);
          env.saveFile(file.name ?? 'conversation.md', file.contents, file.type);
        }),
      },
      actions: {
        leaveConversation: () => env.navigate('/list', { replace: true }),
        closeSidePanel: () => sidePanel.send({ type: 'CLOSE' }),
      },
    }),
    { inspect },
  );
  /** The Share dialog of a conversation, from the sidebar or the chat's menu. */
  const share = createActor(
    shareMachine.provide({
      actors: {
        findShare: fromPromise(({ input }) => api.findShare(input.topicId)),
        shareTopic: fromPromise(({ input }) => api.shareTopic(input.topicId, input.audience)),
        revokeShare: fromPromise(({ input }) => api.revokeShare(input.id)),
      },
    }),
    { inspect },
  );
  const { projects, projectFiles } = createProjectActors(http, api, conversations, inspect);
  const { memberBots, memberBotFiles } = createMemberBotActors(http, api, bots, inspect);
  // The drawer and the side panel never cover the page together: opening the panel closes the drawer.
  sidePanel.subscribe((snapshot) => {
    if (snapshot.matches('open')) conversations.send({ type: 'CLOSE_DRAWER' });
  });
  // The next user must not see the last one's balance, notifications or conversations.
  session.subscribe((snapshot) => {
    if (!snapshot.matches({ auth: 'loggedOut' })) return;
    for (const data of [billing, notifications, conversations, share, projects]) data.send({ type: 'RESET' });
    memberBots.send({ type: 'RESET' });
  });

  const theme = createActor(themeMachine.provide({ actions: themeActions(stored, env.applyTheme) }), {
    input: { stored: stored.theme.get() },
    inspect,
  });

  /** The chat's machine with its effects: each chat screen runs its own actor of it. */
  const chat = topicMachine.provide({
    actors: {
      checkBot: fromPromise(({ input }) => checkBot(bots, input.botId)),
      createTopic: fromPromise(({ input }) => api.createTopic(input.botId, input.project)),
      loadTopic: fromPromise(({ input }) => api.topic(input.topicId)),
      streamReply: createStreamReply(api),
      followReply: createFollowReply(api),
      stopReply: fromPromise(({ input }) => stopReply(api, input)),
      decideToolCall: fromPromise(({ input }) =>
        api.decideToolCall(input.topicId, input.callId, input.approve),
      ),
      watchNetwork,
    },
    actions: {
      navigateToTopic: ({ context }) => env.navigate(`/topics/${context.topicId}`, { replace: true }),
      announceCharge: () => billing.send({ type: 'RELOAD' }),
      announceConversationChange: () => conversations.send({ type: 'REFRESH' }),
      // The branch shown is a preference: every message names the one it follows, so a lost save loses nothing.
      saveHead: ({ context }) =>
        void api.saveHead(context.topicId ?? '', context.topic?.head ?? '').catch(() => {}),
    },
  });

  /** A reply's thumbs: each reply on screen runs its own actor of it. */
  const feedback = feedbackMachine.provide({
    actors: { saveFeedback: fromPromise(({ input }) => api.saveFeedback(input)) },
  });

  /** The conversation's model and reply settings: each chat screen runs its own actor of it. */
  const chatModel = chatModelMachine.provide({
    actors: {
      fetchPrices: fromPromise(() => api.models()),
      saveChoice: fromPromise(({ input }) => api.tuneTopic(input.topicId, { model: input.model })),
      saveParameters: fromPromise(({ input }) =>
        api.tuneTopic(input.topicId, { parameters: input.parameters }),
      ),
    },
  });

  /** The Profile panel's API keys: the panel runs its own actor of it while it shows the profile. */
  const apiKeys = apiKeysMachine.provide({
    actors: {
      listKeys: fromPromise(() => api.apiKeys()),
      createKey: fromPromise(({ input }) => api.createApiKey(input)),
      revokeKey: fromPromise(({ input }) => api.revokeApiKey(input.id)),
    },
  });

  /** The composer's files (each chat screen runs its own actor) and the files messages carry. */
  const attachments = createAttachments(api);
  const files = createFileAccess(api, env.saveFile);
  /** Profile → Personalization's machines: instructions, memory, Undo on a reply, import. */
  const personal = createPersonalActors(http, () => conversations.send({ type: 'REFRESH' }));

  for (const actor of [
    sidePanel,
    organizationDetails,
    billing,
    notifications,
    conversations,
    share,
    theme,
    projects,
    memberBots,
  ])
    actor.start();
  organizationDetails.send({ type: 'LOAD' });
  // The chat screen's actors are inspected too (`inspect`: the Stately inspector in development, or none).
  // The cited passage a chat screen shows: no effects, so the machine as it is.
  const citations = citationsMachine;
  return {
    sidePanel,
    organizationDetails,
    billing,
    notifications,
    conversations,
    share,
    projects,
    projectFiles,
    memberBots,
    memberBotFiles,
    theme,
    chat,
    feedback,
    chatModel,
    apiKeys,
    attachments,
    citations,
    files,
    personal,
    inspect,
  };
}

export type Workspace = ReturnType<typeof createWorkspaceActors>;
