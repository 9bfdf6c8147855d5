import type { OrganizationRecord } from '../../machines/organization';
import type { SessionUser } from '../../machines/session';
import type { StoredValues } from './storedValues';

type Log = (message: string, error?: unknown) => void;

/** The session machine's effects: the stored token and current user (seed-spec §3), and the bots request. */
export const sessionActions = (stored: StoredValues, requestBots: () => void) => ({
  storeToken: ({ context }: { context: { token: string | null } }) =>
    context.token && stored.token.set(context.token),
  removeToken: () => stored.token.clear(),
  storeCurrentUser: ({ context }: { context: { user: SessionUser | null } }) =>
    context.user && stored.currentUser.set(context.user),
  clearCurrentUser: () => stored.currentUser.clear(),
  requestBots,
});

/** The organization machine's effects: `currentOrganization` set or cleared, failures logged. */
export const organizationActions = (stored: StoredValues, log: Log) => ({
  storeOrganization: ({ context }: { context: { organization: OrganizationRecord | null } }) =>
    context.organization && stored.currentOrganization.set(context.organization),
  clearOrganization: () => stored.currentOrganization.clear(),
  logError: ({ event }: { event: object }) =>
    log('Organization check failed', 'error' in event ? event.error : undefined),
});

/** The language machine's effects: `language` stored, then the page reloads; an unusable one leaves the address. */
export const languageActions = (
  stored: StoredValues,
  reload: () => void,
  dropLanguageParameter: () => void,
) => ({
  storeLanguage: ({ context }: { context: { language: string } }) => stored.language.set(context.language),
  reload,
  dropLanguageParameter,
});
