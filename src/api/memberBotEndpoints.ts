import type { MemberBotChoices, MemberBotDraft, MemberBotRecord, NamedRef } from '../../machines/memberBots';
import type { HttpClient } from './http';

const botPath = (id: string) => `/api/v1/user/me/bot/${encodeURIComponent(id)}`;

/**
 * The member's own bots (issue 34): list, make, change, delete, and what the form offers. A bot's
 * `name` travels RSA-encrypted like every top-level `name` (spec §7); the HTTP client sees to it.
 */
export function createMemberBotEndpoints(http: HttpClient) {
  return {
    memberBots: () => http.get<MemberBotRecord[]>('/api/v1/user/me/bot'),
    /**
     * The models open to members' bots, the tools members may give them, the member's groups; aborting
     * the signal (the form closed first) drops both requests.
     */
    memberBotChoices: async (signal?: AbortSignal): Promise<MemberBotChoices> => {
      const [models, rest] = await Promise.all([
        http.get<(NamedRef & { memberBots: boolean })[]>('/api/v1/model', undefined, signal),
        http.get<Omit<MemberBotChoices, 'models'>>('/api/v1/user/me/bot/choices', undefined, signal),
      ]);
      return {
        models: models.filter((model) => model.memberBots).map(({ _id, name }) => ({ _id, name })),
        ...rest,
      };
    },
    /** Makes the bot (id null) or changes it; answers it as stored. */
    saveMemberBot: (id: string | null, draft: MemberBotDraft) =>
      id === null
        ? http.post<MemberBotRecord>('/api/v1/user/me/bot', { ...draft }, { returnError: true })
        : http.patch<MemberBotRecord>(botPath(id), { ...draft }),
    deleteMemberBot: (id: string) => http.delete<unknown>(botPath(id)),
  };
}
