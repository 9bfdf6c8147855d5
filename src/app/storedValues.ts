import type { OrganizationRecord } from '../../machines/organization';
import type { SessionUser } from '../../machines/session';

/** One value kept in local storage under the exact name seed-spec §3 gives it. */
function stored<T>(storage: Storage, key: string, parse: (raw: string) => T, format: (value: T) => string) {
  return {
    get(): T | null {
      const raw = storage.getItem(key);
      if (raw === null) return null;
      try {
        return parse(raw);
      } catch {
        // A value another version or a person left unreadable counts as absent.
        storage.removeItem(key);
        return null;
      }
    },
    set: (value: T) => storage.setItem(key, format(value)),
    clear: () => storage.removeItem(key),
  };
}

const text = (raw: string) => raw;

/** The client values of seed-spec §3 (token, language, currentUser, currentOrganization), and the colour scheme. */
export function createStoredValues(storage: Storage) {
  return {
    token: stored<string>(storage, 'token', text, text),
    language: stored<string>(storage, 'language', text, text),
    currentUser: stored<SessionUser>(storage, 'currentUser', JSON.parse, JSON.stringify),
    currentOrganization: stored<OrganizationRecord>(
      storage,
      'currentOrganization',
      JSON.parse,
      JSON.stringify,
    ),
    /** Read before the first paint by public/theme.js too, under the same name. */
    theme: stored<string>(storage, 'theme', text, text),
    /** Profile → Voice, on this device: the voice replies are read in, and "Send voice messages at once". */
    voice: stored<string>(storage, 'voice', text, text),
    sendVoiceAtOnce: stored<boolean>(storage, 'sendVoiceAtOnce', (raw) => raw === 'true', String),
  };
}

export type StoredValues = ReturnType<typeof createStoredValues>;
