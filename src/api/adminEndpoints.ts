import { createParser } from 'eventsource-parser';
import type {
  AdminPage,
  AdminRecord,
  AuditEntry,
  CategoryRecord,
  FeedbackFigures,
  GroupRecord,
  InvitationRecord,
  McpServerRecord,
  ModelRecord,
  ModelRequest,
  ProviderRecord,
  ToolRecord,
} from '../../machines/adminList';
import type { AdminBot, BotRequest, TryLine } from '../../machines/botEditor';
import type { KnowledgeBaseRecord, KnowledgeDocument } from '../../machines/knowledgeBase';
import type { MemberChange, MemberPage, MemberRecord, MemberRole } from '../../machines/members';
import type { OrganizationSettings, SettingsRequest } from '../../machines/orgSettings';
import type { SsoRequest, SsoSettings } from '../../machines/ssoSettings';
import type { UsageReport } from '../../machines/usage';
import type { HttpClient } from './http';
import type { StreamEvents } from './types';

const admin = '/api/v1/admin';
const at = (kind: string, id: string) => `${admin}/${kind}/${encodeURIComponent(id)}`;

/** A list answer as a page: the routes that do not page answer the whole list. */
function pageOf<R extends AdminRecord>(answer: R[] | AdminPage<R>): AdminPage<R> {
  return Array.isArray(answer) ? { items: answer, next: null } : { items: answer.items, next: answer.next };
}

/** A bot as the server may send it: its categories as ids or as `{ _id, name }`, its platform as a name or `{ name }`. */
type WireBot = Omit<AdminBot, 'categories' | 'platform'> & {
  categories: (string | { _id: string })[];
  platform: AdminBot['platform'] | { name: AdminBot['platform'] };
};
const botOf = (bot: WireBot): AdminBot => ({
  ...bot,
  platform: typeof bot.platform === 'string' ? bot.platform : bot.platform.name,
  categories: (bot.categories ?? []).map((category) =>
    typeof category === 'string' ? category : category._id,
  ),
});

export type TryEvent = {
  [K in keyof StreamEvents]: { type: K; data: StreamEvents[K] };
}[keyof StreamEvents];

/**
 * The admin area's calls (`/api/v1/admin/…`), each answering the record types its machines keep. They
 * load with the admin area, never with the landing page or the chat.
 */
export function createAdminEndpoints(http: HttpClient) {
  /** A model list as a provider's route answers it: the ids, OpenAI's `data`, or `{ models }`. */
  const modelsAt = async (path: string) => {
    const answer = await http.get<string[] | { models: string[] } | { data: { id: string }[] }>(path);
    if (Array.isArray(answer)) return answer;
    if ('models' in answer) return answer.models;
    return answer.data.map((model) => model.id);
  };
  return {
    bots: async (): Promise<AdminPage<AdminBot>> => {
      const page = pageOf(await http.get<WireBot[] | AdminPage<WireBot & AdminRecord>>(`${admin}/bot`));
      return { items: page.items.map(botOf), next: page.next };
    },
    createBot: async (request: BotRequest) =>
      botOf(await http.post<WireBot>(`${admin}/bot`, { ...request }, { returnError: true })),
    updateBot: async (id: string, request: Partial<BotRequest>) =>
      botOf(await http.patch<WireBot>(at('bot', id), { ...request })),
    /** Retires the bot: inactive, kept for the conversations it had. */
    retireBot: (id: string) => http.delete<unknown>(at('bot', id)),

    categories: async () =>
      pageOf(await http.get<CategoryRecord[] | AdminPage<CategoryRecord>>(`${admin}/category`)),
    createCategory: (name: string) =>
      http.post<CategoryRecord>(`${admin}/category`, { name }, { returnError: true }),
    renameCategory: (id: string, name: string) => http.patch<CategoryRecord>(at('category', id), { name }),
    deleteCategory: (id: string) => http.delete<unknown>(at('category', id)),

    groups: async () => pageOf(await http.get<GroupRecord[] | AdminPage<GroupRecord>>(`${admin}/group`)),
    /** `name` travels encrypted, like every name. */
    createGroup: (values: { name: string; monthlyBudget?: number | null; idpGroups?: string[] }) =>
      http.post<GroupRecord>(`${admin}/group`, { ...values }, { returnError: true }),
    updateGroup: (
      id: string,
      values: Partial<{ name: string; monthlyBudget: number | null; idpGroups: string[] }>,
    ) => http.patch<GroupRecord>(at('group', id), { ...values }),
    /** Sets the group's members; PUT answers only whether it went through (seed-spec §7). */
    setGroupMembers: async (id: string, members: string[]) => {
      const answer = await http.put(`${at('group', id)}/members`, { members });
      if (!answer.success) throw new Error('The members could not be saved. Please try again.');
      return answer;
    },
    deleteGroup: (id: string) => http.delete<unknown>(at('group', id)),

    mcpServers: async () =>
      pageOf(await http.get<McpServerRecord[] | AdminPage<McpServerRecord>>(`${admin}/mcp`)),
    /** Reads the server's tools before answering (10 s at most); `name` travels encrypted. */
    createMcpServer: (values: { name: string; url: string; token?: string }) =>
      http.post<McpServerRecord>(`${admin}/mcp`, { ...values }, { returnError: true }),
    updateMcpServer: (id: string, values: Partial<{ name: string; url: string; token: string | null }>) =>
      http.patch<McpServerRecord>(at('mcp', id), { ...values }),
    /** Removes the server; its tools are taken from the bots that used them. */
    deleteMcpServer: (id: string) =>
      http.delete<{ success: true; bots: { _id: string; name: string }[] }>(at('mcp', id)),
    /** Every tool the organization's bots may use, built-in ones first; a tool's `_id` is its name. */
    tools: async (): Promise<AdminPage<ToolRecord>> => {
      const tools = await http.get<Omit<ToolRecord, '_id'>[]>(`${admin}/tool`);
      return { items: tools.map((tool) => ({ ...tool, _id: tool.name })), next: null };
    },

    providers: async () =>
      pageOf(await http.get<ProviderRecord[] | AdminPage<ProviderRecord>>(`${admin}/provider`)),
    createProvider: (values: { name: string; baseUrl: string; apiKey: string }) =>
      http.post<ProviderRecord>(`${admin}/provider`, { ...values }, { returnError: true }),
    updateProvider: (id: string, values: Partial<{ name: string; baseUrl: string; apiKey: string }>) =>
      http.patch<ProviderRecord>(at('provider', id), { ...values }),
    deleteProvider: (id: string) => http.delete<unknown>(at('provider', id)),
    providerModels: (id: string) => modelsAt(`${at('provider', id)}/models`),
    /** Whether the server has a provider of its own (OPENAI_BASE_URL), used by bots that name none. */
    serverProvider: () => http.get<{ configured: boolean }>(`${admin}/provider/server`),
    serverModels: () => modelsAt(`${admin}/provider/server/models`),

    /** The organization's model catalogue. */
    models: async () => pageOf(await http.get<ModelRecord[]>(`${admin}/model`)),
    /** `name` travels encrypted, like every name. */
    createModel: (values: ModelRequest) =>
      http.post<ModelRecord>(`${admin}/model`, { ...values }, { returnError: true }),
    updateModel: (id: string, values: Partial<ModelRequest>) =>
      http.patch<ModelRecord>(at('model', id), { ...values }),
    /** Refused (409) while a bot offers the model. */
    deleteModel: (id: string) => http.delete<unknown>(at('model', id)),

    knowledgeBases: async () =>
      pageOf(await http.get<KnowledgeBaseRecord[] | AdminPage<KnowledgeBaseRecord>>(`${admin}/knowledge`)),
    knowledgeBase: (id: string) => http.get<KnowledgeBaseRecord>(at('knowledge', id)),
    /** `name` travels encrypted, like every name. */
    createKnowledgeBase: (values: { name: string; description: string }) =>
      http.post<KnowledgeBaseRecord>(`${admin}/knowledge`, { ...values }, { returnError: true }),
    updateKnowledgeBase: (id: string, values: Partial<{ name: string; description: string }>) =>
      http.patch<KnowledgeBaseRecord>(at('knowledge', id), { ...values }),
    /** Deletes the base with its documents; the bots that searched it no longer do. */
    deleteKnowledgeBase: (id: string) => http.delete<unknown>(at('knowledge', id)),
    /** Uploads one document (multipart `file`); answers it queued for indexing. */
    uploadKnowledgeDocument: (id: string, file: File) => {
      const body = new FormData();
      body.append('file', file, file.name);
      return http.post<KnowledgeDocument>(`${at('knowledge', id)}/file`, body, { returnError: true });
    },
    removeKnowledgeDocument: (id: string, documentId: string) =>
      http.delete<unknown>(`${at('knowledge', id)}/file/${encodeURIComponent(documentId)}`),

    members: (query: string, cursor: string, signal?: AbortSignal) =>
      http.get<MemberPage>(`${admin}/member`, { q: query || undefined, cursor: cursor || undefined }, signal),
    inviteMember: (email: string, role: MemberRole) =>
      http.post<{ sent: true }>(`${admin}/member/invite`, { email, role }, { returnError: true }),
    /** The invitations not accepted yet, newest first (expired ones too). */
    invitations: async () => pageOf(await http.get<InvitationRecord[]>(`${admin}/invitation`)),
    /** Mails the invitation again with a new code and its full time; the old code stops working. */
    resendInvitation: (id: string) =>
      http.post<{ sent: true }>(`${at('invitation', id)}/resend`, {}, { returnError: true }),
    /** Revokes the invitation: its code stops working at once. */
    revokeInvitation: (id: string) => http.delete<unknown>(at('invitation', id)),
    updateMember: (id: string, change: MemberChange) =>
      http.patch<MemberRecord>(at('member', id), { ...change }),
    /** Grants (negative: deducts) credit; answers the new balance. */
    grantCredit: async (id: string, amount: number, note: string) => {
      const answer = await http.post<number | { balance: number }>(
        `${at('member', id)}/credit`,
        { amount, note },
        { returnError: true },
      );
      return typeof answer === 'number' ? answer : answer.balance;
    },

    settings: () => http.get<OrganizationSettings>(`${admin}/settings`),
    updateSettings: (settings: SettingsRequest) =>
      http.patch<OrganizationSettings>(`${admin}/settings`, { ...settings }),

    /** The organization's identity provider (owners only); the secret comes back masked. */
    sso: () => http.get<SsoSettings | null>(`${admin}/sso`),
    /** Stores the settings (a left-out secret is kept), or turns SSO off with null. */
    updateSso: (settings: SsoRequest | null) =>
      http.replace<SsoSettings | null>(`${admin}/sso`, settings ? { ...settings } : null),
    /** Revokes every API key of the organization's members and admins (owners keep theirs). */
    revokeMemberApiKeys: () =>
      http.post<{ revoked: number }>(`${admin}/sso/revoke-api-keys`, undefined, { returnError: true }),

    usage: (days: number) => http.get<UsageReport>(`${admin}/usage`, { days }),
    usageCsv: (days: number) => http.download(`${admin}/usage`, { days, format: 'csv' }),

    /** The thumbs per bot and model, one page; a row's `_id` is its bot's and model's. */
    feedback: async (): Promise<AdminPage<FeedbackFigures>> => {
      const rows = await http.get<Omit<FeedbackFigures, '_id'>[]>(`${admin}/feedback`);
      return {
        items: rows.map((row) => ({ ...row, _id: `${row.bot?._id ?? ''}/${row.model?._id ?? ''}` })),
        next: null,
      };
    },
    audit: async (cursor: string) =>
      pageOf(
        await http.get<AuditEntry[] | AdminPage<AuditEntry>>(`${admin}/audit`, {
          cursor: cursor || undefined,
        }),
      ),

    /** Streams the saved bot's reply to `text`, after `history`, charging nobody and storing nothing. */
    async *tryBot(
      id: string,
      text: string,
      history: TryLine[],
      signal: AbortSignal,
    ): AsyncGenerator<TryEvent> {
      // The conversation so far (replies left empty by a stop are left out), then the new message.
      const messages = [...history.filter((line) => line.text.trim()), { role: 'user', text }];
      const stream = await http.stream(`${at('bot', id)}/try`, { messages }, signal);
      if (!stream) return;
      const queue: TryEvent[] = [];
      const parser = createParser({
        onEvent: ({ event, data }) => {
          queue.push({ type: (event ?? 'message') as TryEvent['type'], data: JSON.parse(data) } as TryEvent);
        },
      });
      const reader = stream.getReader();
      const decoder = new TextDecoder();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          parser.feed(decoder.decode(value, { stream: true }));
          while (queue.length) yield queue.shift() as TryEvent;
        }
      } finally {
        reader.releaseLock();
      }
    },
  };
}

export type AdminEndpoints = ReturnType<typeof createAdminEndpoints>;
