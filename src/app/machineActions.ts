import type { OrganizationRecord } from '../../machines/organization';
import type { SessionUser } from '../../machines/session';
import type { Organization, User } from '../api/types';
import type { StoredValues } from './storedValues';

type Log = (message: string, error?: unknown) => void;

/** The session machine's effects: the stored token and current user (seed-spec §3), and the bots request. */
export const sessionActions = (stored: StoredValues, requestBots: () => void) => ({
  storeToken: (_: unknown, { token }: { token: string }) => stored.token.set(token),
  removeToken: () => stored.token.clear(),
  storeCurrentUser: (_: unknown, { user }: { user: SessionUser }) => stored.currentUser.set(user as User),
  clearCurrentUser: () => stored.currentUser.clear(),
  requestBots,
});

/** The organization machine's effects: `currentOrganization` set or cleared, failures logged. */
export const organizationActions = (stored: StoredValues, log: Log) => ({
  storeOrganization: (_: unknown, { organization }: { organization: OrganizationRecord }) =>
    stored.currentOrganization.set(organization as Organization),
  clearOrganization: () => stored.currentOrganization.clear(),
  logError: (_: unknown, { error }: { error: unknown }) => log('Organization check failed', error),
});

/** The language machine's effects: `language` stored, then the page reloads; an unusable one leaves the address. */
export const languageActions = (
  stored: StoredValues,
  reload: () => void,
  dropLanguageParameter: () => void,
) => ({
  storeLanguage: (_: unknown, { language }: { language: string }) => stored.language.set(language),
  reload,
  dropLanguageParameter,
});
