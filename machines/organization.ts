import { assign, fromPromise, setup } from 'xstate';

export interface OrganizationRecord {
  _id: string;
  subdomain: string;
  name: string;
  /** The accent its admins chose (#rrggbb); none: Parley's own. */
  brandColor?: string | null;
  /** Its identity provider's button ("Continue with …"), when it signs in with one; none: null. */
  sso?: { label: string } | null;
  /** Whether a translation provider can translate messages (the catalogs know the UI's own words only). */
  messageTranslation?: boolean;
  /** Whether the organization saves and uses members' memories (its admins may turn it off). */
  memory?: boolean;
  /** Whether members may make their own bots (its admins' `memberBots`). */
  memberBots?: boolean;
  /** Whether its admins chose a search engine: model bots may search the web. */
  webSearch?: boolean;
  /** Voice: whether members may dictate, whether the server reads replies aloud, and in which voices. */
  voice?: { transcription: boolean; speech: boolean; voices: string[] };
}

/** The label that means "no specific organization" (seed-spec §1, §9). */
export const appLabel = 'app';

/** The host name of a `host` (name and port): an IPv6 address keeps its brackets. */
const hostnameOf = (host: string) => {
  const lower = host.toLowerCase();
  return lower.startsWith('[') ? lower.slice(0, lower.indexOf(']') + 1) : lower.split(':')[0];
};

/** An IPv4 address, or an IPv6 one (in brackets, as a host names it): neither has an organization label. */
const isIpAddress = (hostname: string) =>
  hostname.startsWith('[') || /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname);

/**
 * Seed-spec §4: a host starting with localhost uses the configured default; a host with more than
 * two labels uses its first label; otherwise the label is `app`. An IP address (what a server prints,
 * `127.0.0.1`) counts as localhost: its first number is no organization.
 */
export function organizationFromHost(host: string, defaultOrganization: string): string {
  const hostname = hostnameOf(host);
  if (hostname.startsWith('localhost') || isIpAddress(hostname)) return defaultOrganization;
  const labels = hostname.split('.');
  return labels.length > 2 ? labels[0] : appLabel;
}

export const organizationMachine = setup({
  types: {
    context: {} as { subdomain: string; organization: OrganizationRecord | null },
    input: {} as { host: string; defaultOrganization: string },
  },
  actors: {
    fetchOrganization: fromPromise<OrganizationRecord, { subdomain: string }>(async () => {
      throw new Error('fetchOrganization is provided by the app');
    }),
  },
  guards: {
    isApp: ({ context }) => context.subdomain === appLabel,
  },
  actions: {
    /** Effects the app provides: `currentOrganization` in local storage (seed-spec §3). */
    /** Stores `context.organization`. */
    storeOrganization: () => {
      throw new Error('storeOrganization is provided by the app');
    },
    clearOrganization: () => {
      throw new Error('clearOrganization is provided by the app');
    },
    /** Logs the failure (`event.error`). */
    logError: () => {
      throw new Error('logError is provided by the app');
    },
    assignOrganization: assign((_, { organization }: { organization: OrganizationRecord }) => ({
      organization,
    })),
    forgetOrganization: assign({ organization: null }),
  },
}).createMachine({
  id: 'organization',
  description: 'The organization check: which organization the host names, and whether it exists.',
  context: ({ input }) => ({
    subdomain: organizationFromHost(input.host, input.defaultOrganization),
    organization: null,
  }),
  initial: 'resolving',
  states: {
    resolving: {
      description: 'Reads the organization label from the host name.',
      always: [{ guard: 'isApp', target: 'allowed', actions: 'clearOrganization' }, { target: 'fetching' }],
    },
    fetching: {
      description: 'Looks the organization up by its subdomain.',
      invoke: {
        id: 'fetchOrganization',
        src: 'fetchOrganization',
        input: ({ context }) => ({ subdomain: context.subdomain }),
        onDone: {
          target: 'allowed',
          actions: [
            { type: 'assignOrganization', params: ({ event }) => ({ organization: event.output }) },
            'storeOrganization',
          ],
        },
        onError: {
          target: 'blocked',
          actions: ['logError', 'forgetOrganization', 'clearOrganization'],
        },
      },
    },
    allowed: { description: 'The routes behind the organization check are open.' },
    blocked: { description: 'Unknown organization: navigation is blocked, with no message.' },
  },
});
