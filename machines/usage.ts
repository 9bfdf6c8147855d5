import { assign, fromPromise, setup } from 'xstate';
import { errorParams, messageOf } from './errors';

/** One day of the organization's use. */
export interface UsageDay {
  /** `YYYY-MM-DD`. */
  date: string;
  messages: number;
  replies: number;
  spend: number;
}
export interface UsageByBot {
  _id: string;
  name: string;
  messages: number;
  replies: number;
  spend: number;
}
export interface UsageByMember {
  _id: string;
  displayName: string;
  username: string;
  messages: number;
  replies: number;
  spend: number;
}
/** `GET /api/v1/admin/usage?days=30`: per day (oldest first), per bot, per member, and the totals. */
export interface UsageReport {
  days: number;
  /** The first day counted, `YYYY-MM-DD`. */
  since: string;
  currency: string;
  totals: { messages: number; replies: number; spend: number };
  perDay: UsageDay[];
  perBot: UsageByBot[];
  perMember: UsageByMember[];
}

export interface UsageContext {
  days: number;
  report: UsageReport | null;
  error: string | null;
  downloadError: string | null;
}

export type UsageEvent = { type: 'LOAD' } | { type: 'RELOAD' } | { type: 'DOWNLOAD' } | { type: 'RESET' };

export const usageMachine = setup({
  types: {
    context: {} as UsageContext,
    events: {} as UsageEvent,
  },
  actors: {
    fetchUsage: fromPromise<UsageReport, { days: number }>(async () => {
      throw new Error('fetchUsage is provided by the app');
    }),
    /** Fetches the same figures as CSV and hands the file to the browser to save. */
    downloadUsage: fromPromise<unknown, { days: number }>(async () => {
      throw new Error('downloadUsage is provided by the app');
    }),
  },
  actions: {
    assignReport: assign((_, { report }: { report: UsageReport }) => ({ report, error: null })),
    assignError: assign((_, { error }: { error: unknown }) => ({ error: messageOf(error) })),
    assignDownloadError: assign((_, { error }: { error: unknown }) => ({ downloadError: messageOf(error) })),
    clearDownloadError: assign({ downloadError: null }),
    forgetAll: assign({ report: null, error: null, downloadError: null }),
  },
}).createMachine({
  id: 'usage',
  description: "The organization's use over the last 30 days: figures, charts, and a CSV download.",
  type: 'parallel',
  context: { days: 30, report: null, error: null, downloadError: null },
  on: {
    RESET: { target: ['.report.idle', '.download.idle'], actions: 'forgetAll' },
  },
  states: {
    report: {
      description: 'The figures per day, per bot and per member.',
      initial: 'idle',
      states: {
        idle: { description: 'Not asked for yet.', on: { LOAD: 'loading' } },
        loading: {
          description: 'Fetches the figures.',
          invoke: {
            id: 'fetchUsage',
            src: 'fetchUsage',
            input: ({ context }) => ({ days: context.days }),
            onDone: {
              target: 'loaded',
              actions: { type: 'assignReport', params: ({ event }) => ({ report: event.output }) },
            },
            onError: { target: 'failed', actions: { type: 'assignError', params: errorParams } },
          },
        },
        loaded: {
          description: 'Shown; Refresh, or coming back to the screen, reads them afresh.',
          on: { LOAD: 'loading', RELOAD: 'loading' },
        },
        failed: {
          description: 'The figures could not be loaded; the admin can retry.',
          on: { LOAD: 'loading', RELOAD: 'loading' },
        },
      },
    },
    download: {
      description: 'The CSV download.',
      initial: 'idle',
      states: {
        idle: { description: 'No download under way.', on: { DOWNLOAD: 'downloading' } },
        downloading: {
          description: 'Fetches the CSV file and saves it.',
          entry: 'clearDownloadError',
          invoke: {
            id: 'downloadUsage',
            src: 'downloadUsage',
            input: ({ context }) => ({ days: context.days }),
            onDone: 'idle',
            onError: { target: 'idle', actions: { type: 'assignDownloadError', params: errorParams } },
          },
        },
      },
    },
  },
});
