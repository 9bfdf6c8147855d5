import {
  type ActorRefFrom,
  createActor,
  fromCallback,
  fromPromise,
  type InspectionEvent,
  type Observer,
} from 'xstate';
import {
  type AdminChange,
  type AdminPage,
  type AdminRecord,
  createAdminListMachine,
  type ModelRequest,
} from '../../machines/adminList';
import { type BotEditorEvent, botEditorMachine, type TryLine } from '../../machines/botEditor';
import { knowledgeBaseMachine } from '../../machines/knowledgeBase';
import { membersMachine } from '../../machines/members';
import { orgSettingsMachine } from '../../machines/orgSettings';
import { createResourceMachine } from '../../machines/resource';
import type { sessionMachine } from '../../machines/session';
import { ssoSettingsMachine } from '../../machines/ssoSettings';
import { usageMachine } from '../../machines/usage';
import { type AdminEndpoints, createAdminEndpoints } from '../api/adminEndpoints';
import type { Endpoints } from '../api/endpoints';
import { type HttpClient, HttpError } from '../api/http';
import type { AppEnvironment } from './createAppActors';

export interface AdminDependencies {
  http: HttpClient;
  /** The app's own calls: the user is read afresh with the admin area (their role may have changed). */
  api: Pick<Endpoints, 'me'>;
  env: Pick<AppEnvironment, 'navigate' | 'saveFile'> & { applyBrand: (color: string | null) => void };
  session: ActorRefFrom<typeof sessionMachine>;
  inspect?: Observer<InspectionEvent>;
}

type Values = Record<string, unknown>;
/** How one list's changes map onto its calls. */
interface ListCalls<R extends AdminRecord> {
  fetchPage: (cursor: string) => Promise<AdminPage<R>>;
  create?: (values: Values) => Promise<unknown>;
  update?: (id: string, values: Values) => Promise<unknown>;
  remove?: (id: string) => Promise<unknown>;
}

/** An actor of the admin area: started with it, and told to forget everything on logout. */
interface Forgetful {
  send(event: { type: 'RESET' }): void;
  start(): void;
}

const refused = () => Promise.reject(new Error('This cannot be changed here.'));

/** The "Try it" chat's stream: the try route's server-sent events as the bot editor's events. */
function createStreamTry(api: AdminEndpoints) {
  return fromCallback<BotEditorEvent, { botId: string; text: string; history: TryLine[] }>(
    ({ input, sendBack }) => {
      const controller = new AbortController();
      let finished = false;
      (async () => {
        try {
          for await (const event of api.tryBot(input.botId, input.text, input.history, controller.signal)) {
            if (event.type === 'token') sendBack({ type: 'TRY_TOKEN', text: event.data.text });
            else if (event.type === 'done') {
              finished = true;
              sendBack({ type: 'TRY_DONE' });
            } else if (event.type === 'error') {
              finished = true;
              sendBack({ type: 'TRY_FAILED', message: event.data.error });
            }
          }
          if (!finished && !controller.signal.aborted)
            sendBack({ type: 'TRY_FAILED', message: 'The reply ended unexpectedly.' });
        } catch (error) {
          if (controller.signal.aborted) return;
          sendBack({
            type: 'TRY_FAILED',
            message: error instanceof HttpError ? error.message : 'The reply could not be received.',
          });
        }
      })();
      return () => controller.abort();
    },
  );
}

/**
 * The admin area's half of the composition root: its lists, members, settings and usage, each machine
 * with its effects, and the bot editor's machine (one actor per editor screen). Created once, with
 * the first admin screen, in the admin area's own chunk.
 */
export async function createAdminActors({ http, api: app, env, session, inspect }: AdminDependencies) {
  // The role shown is today's: the user is read afresh before the area opens (a failure keeps the stored one).
  await app.me().then(
    (user) => session.send({ type: 'USER_UPDATED', user }),
    () => {},
  );
  const api = createAdminEndpoints(http);

  const list = <R extends AdminRecord>(calls: ListCalls<R>) =>
    createActor(
      createAdminListMachine<R>().provide({
        actors: {
          fetchPage: fromPromise(({ input }) => calls.fetchPage(input.cursor)),
          applyChange: fromPromise(({ input }) => {
            const change: AdminChange = input.change;
            if (change.kind === 'create') return calls.create?.(change.values) ?? refused();
            if (change.kind === 'update') return calls.update?.(change.id, change.values) ?? refused();
            return calls.remove?.(change.id) ?? refused();
          }),
        },
        // Nothing outside a list depends on its changes yet.
        actions: { announceChange: () => {} },
      }),
      { inspect },
    );

  const bots = list({
    fetchPage: () => api.bots(),
    update: (id, values) => api.updateBot(id, values),
    remove: (id) => api.retireBot(id),
  });
  const categories = list({
    fetchPage: () => api.categories(),
    create: (values) => api.createCategory(String(values.name ?? '')),
    update: (id, values) => api.renameCategory(id, String(values.name ?? '')),
    remove: (id) => api.deleteCategory(id),
  });
  const providers = list({
    fetchPage: () => api.providers(),
    create: (values) =>
      api.createProvider({
        name: String(values.name ?? ''),
        baseUrl: String(values.baseUrl ?? ''),
        apiKey: String(values.apiKey ?? ''),
      }),
    update: (id, values) => api.updateProvider(id, values),
    remove: (id) => api.deleteProvider(id),
  });
  const models = list({
    fetchPage: () => api.models(),
    create: (values) => api.createModel(values as ModelRequest),
    update: (id, values) => api.updateModel(id, values),
    remove: (id) => api.deleteModel(id),
  });
  const groups = list({
    fetchPage: () => api.groups(),
    create: (values) =>
      api.createGroup({
        name: String(values.name ?? ''),
        monthlyBudget: (values.monthlyBudget as number | null | undefined) ?? null,
        idpGroups: (values.idpGroups as string[] | undefined) ?? [],
      }),
    // The members picker saves the members (PUT); the group's form its settings (PATCH).
    update: (id, { members, ...settings }) =>
      Array.isArray(members)
        ? api.setGroupMembers(id, members as string[])
        : api.updateGroup(id, settings as Parameters<typeof api.updateGroup>[1]),
    remove: (id) => api.deleteGroup(id),
  });
  const mcpServers = list({
    fetchPage: () => api.mcpServers(),
    create: (values) =>
      api.createMcpServer({
        name: String(values.name ?? ''),
        url: String(values.url ?? ''),
        ...(values.token ? { token: String(values.token) } : {}),
      }),
    update: (id, values) => api.updateMcpServer(id, values),
    remove: (id) => api.deleteMcpServer(id),
  });
  const tools = list({ fetchPage: () => api.tools() });
  const audit = list({ fetchPage: (cursor) => api.audit(cursor) });
  const feedback = list({ fetchPage: () => api.feedback() });
  const knowledge = list({
    fetchPage: () => api.knowledgeBases(),
    create: (values) =>
      api.createKnowledgeBase({
        name: String(values.name ?? ''),
        description: String(values.description ?? ''),
      }),
    update: (id, values) => api.updateKnowledgeBase(id, values),
    remove: (id) => api.deleteKnowledgeBase(id),
  });

  /** One knowledge base's page with its effects: each page runs its own actor of it. */
  const knowledgeBase = knowledgeBaseMachine.provide({
    actors: {
      fetchBase: fromPromise(({ input }) => api.knowledgeBase(input.baseId)),
      uploadDocument: fromPromise(({ input }) => api.uploadKnowledgeDocument(input.baseId, input.file)),
      removeDocument: fromPromise(({ input }) => api.removeKnowledgeDocument(input.baseId, input.documentId)),
    },
  });

  const invitations = list({
    fetchPage: () => api.invitations(),
    // Changing an invitation is sending it again: a new code and time.
    update: (id) => api.resendInvitation(id),
    remove: (id) => api.revokeInvitation(id),
  });

  const members = createActor(
    membersMachine.provide({
      actors: {
        fetchPage: fromPromise(({ input, signal }) => api.members(input.query, input.cursor, signal)),
        updateMember: fromPromise(({ input }) => api.updateMember(input.id, input.change)),
        grantCredit: fromPromise(({ input }) => api.grantCredit(input.id, input.amount, input.note)),
        inviteMember: fromPromise(({ input }) => api.inviteMember(input.email, input.role)),
      },
    }),
    { inspect },
  );

  // An invitation just sent is listed at once (the invite dialog is the members machine's).
  let invited = false;
  members.subscribe((snapshot) => {
    const sent = snapshot.matches({ invite: 'sent' });
    if (sent && !invited) invitations.send({ type: 'LOAD' });
    invited = sent;
  });

  const settings = createActor(
    orgSettingsMachine.provide({
      actors: {
        fetchSettings: fromPromise(() => api.settings()),
        saveSettings: fromPromise(({ input }) => api.updateSettings(input.settings)),
      },
      actions: { applyBrand: ({ context }) => env.applyBrand(context.draft.brandColor || null) },
    }),
    { inspect },
  );

  /** The organization's identity provider (owners only), and the members' API keys it counts. */
  const sso = createActor(
    ssoSettingsMachine.provide({
      actors: {
        fetchSettings: fromPromise(() => api.sso()),
        saveSettings: fromPromise(({ input }) => api.updateSso(input.settings)),
        turnOff: fromPromise(async () => {
          await api.updateSso(null);
        }),
        revokeKeys: fromPromise(() => api.revokeMemberApiKeys()),
      },
    }),
    { inspect },
  );

  const usage = createActor(
    usageMachine.provide({
      actors: {
        fetchUsage: fromPromise(({ input }) => api.usage(input.days)),
        downloadUsage: fromPromise(async ({ input }) => {
          const file = await api.usageCsv(input.days);
          env.saveFile(file.name ?? `usage-${input.days}-days.csv`, file.contents, file.type || 'text/csv');
        }),
      },
    }),
    { inspect },
  );

  /** The bot editor's machine with its effects: each editor screen runs its own actor of it. */
  const botEditor = botEditorMachine.provide({
    actors: {
      loadEditor: fromPromise(async ({ input }) => {
        const [botPage, providerPage, categoryPage, knowledgePage, groupPage, toolPage, server, modelPage] =
          await Promise.all([
            input.botId ? api.bots() : null,
            api.providers(),
            api.categories(),
            api.knowledgeBases(),
            api.groups(),
            api.tools(),
            api.serverProvider(),
            api.models(),
          ]);
        const bot = botPage?.items.find((item) => item._id === input.botId) ?? null;
        if (input.botId && !bot) throw new Error('Bot not found');
        return {
          bot,
          providers: providerPage.items,
          categories: categoryPage.items,
          knowledgeBases: knowledgePage.items.map(({ _id, name }) => ({ _id, name })),
          groups: groupPage.items.map(({ _id, name }) => ({ _id, name })),
          tools: toolPage.items.map(({ _id, ...tool }) => tool),
          catalogue: modelPage.items.map(({ _id, name }) => ({ _id, name })),
          serverProvider: server.configured,
        };
      }),
      saveBot: fromPromise(({ input }) =>
        input.botId ? api.updateBot(input.botId, input.request) : api.createBot(input.request),
      ),
      fetchModels: fromPromise(({ input }) =>
        input.provider ? api.providerModels(input.provider) : api.serverModels(),
      ),
      streamTry: createStreamTry(api),
    },
    actions: {
      announceSaved: ({ context }, { created }) => {
        if (created && context.botId)
          env.navigate(`/admin/bots/${encodeURIComponent(context.botId)}`, { replace: true });
      },
    },
  });

  /** A provider's model list, behind the small machine of server data shown on screen. */
  const providerModels = (providerId: string) =>
    createResourceMachine<string[]>().provide({
      actors: { fetch: fromPromise(() => api.providerModels(providerId)) },
    });

  // Listed as what they share (a union of eight actor types is too complex for the compiler).
  const running: Forgetful[] = [
    bots,
    categories,
    providers,
    models,
    groups,
    mcpServers,
    tools,
    audit,
    knowledge,
    members,
    invitations,
    settings,
    sso,
    usage,
    feedback,
  ];
  // The next user must not see this organization's members, settings or figures.
  session.subscribe((snapshot) => {
    if (!snapshot.matches({ auth: 'loggedOut' })) return;
    for (const actor of running) actor.send({ type: 'RESET' });
  });

  for (const actor of running) actor.start();
  // The editor's and the model lists' actors, created by their screens, are inspected too.
  return {
    bots,
    categories,
    providers,
    models,
    groups,
    mcpServers,
    tools,
    audit,
    knowledge,
    members,
    invitations,
    settings,
    sso,
    usage,
    feedback,
    botEditor,
    knowledgeBase,
    providerModels,
    inspect,
  };
}

export type AdminActors = Awaited<ReturnType<typeof createAdminActors>>;
