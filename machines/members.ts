import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { errorParams, formProblem, messageOf } from './errors';
import {
  emptySearchedList,
  type Page,
  type SearchedList,
  searchDelays,
  searchedListActions,
  searchedListGuards,
  searchedListRegion,
} from './pagedList';

export type MemberRole = 'owner' | 'admin' | 'member';
export const memberRoles: MemberRole[] = ['owner', 'admin', 'member'];

/** A member of the organization as its admins see them; `_id` is the user's. */
export interface MemberRecord {
  _id: string;
  displayName: string;
  username: string;
  email: string;
  role: MemberRole;
  status: 'active' | 'suspended';
  balance: number;
  currency?: string;
}

/** A page of members; `next` continues the list, null at its end. */
export type MemberPage = Page<MemberRecord>;

export interface MemberChange {
  role?: MemberRole;
  suspended?: boolean;
}

export interface MemberProblem {
  field: 'amount' | 'note' | 'email' | 'role' | null;
  message: string;
}

export interface MembersContext extends SearchedList<MemberRecord> {
  /** What went wrong with the last role change or suspension. */
  changeError: string | null;
  /** The member the credit dialog is about. */
  target: MemberRecord | null;
  /** Problems of the dialog open (credit or invite), each next to its field. */
  problems: MemberProblem[];
  /** The address the last invitation went to. */
  invited: string | null;
}

export type MembersEvent =
  | { type: 'LOAD' }
  | { type: 'RETRY' }
  | { type: 'LOAD_MORE' }
  | { type: 'SEARCH'; query: string }
  | { type: 'CHANGE_MEMBER'; id: string; change: MemberChange }
  | { type: 'OPEN_CREDIT'; member: MemberRecord }
  | { type: 'GRANT'; amount: string; note: string }
  | { type: 'OPEN_INVITE' }
  | { type: 'INVITE'; email: string; role: MemberRole }
  | { type: 'CANCEL' }
  | { type: 'RESET' };

/** Seed-spec §5: text, an at sign, text, a dot, text, with no spaces. */
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What the credit dialog must hold before it is sent: an amount in whole cents (as the server books it), a note. */
export function creditProblems(amount: string, note: string): MemberProblem[] {
  const problems: MemberProblem[] = [];
  const value = Number(amount);
  if (amount.trim() === '' || !Number.isFinite(value) || value === 0)
    problems.push({ field: 'amount', message: 'Enter an amount other than 0; a negative one deducts.' });
  else if (Math.abs(value * 100 - Math.round(value * 100)) > 1e-6)
    problems.push({ field: 'amount', message: 'Enter whole cents: at most two decimals.' });
  if (!note.trim()) problems.push({ field: 'note', message: 'Enter a note the member will see.' });
  return problems;
}

/** What the invite dialog must hold before it is sent. */
export function inviteProblems(email: string): MemberProblem[] {
  return emailPattern.test(email.trim()) ? [] : [{ field: 'email', message: 'Enter a valid email address.' }];
}

const forgotten = {
  ...emptySearchedList,
  changeError: null,
  target: null,
  problems: [],
  invited: null,
} satisfies MembersContext;

export const membersMachine = setup({
  types: {
    context: {} as MembersContext,
    events: {} as MembersEvent,
  },
  actors: {
    /** A page of the members, or of those whose name, username or email matches `query`. */
    fetchPage: fromPromise<MemberPage, { query: string; cursor: string }>(async () => {
      throw new Error('fetchPage is provided by the app');
    }),
    /** Changes a member's role or suspends / reinstates them; answers the member as stored. */
    updateMember: fromPromise<MemberRecord, { id: string; change: MemberChange }>(async () => {
      throw new Error('updateMember is provided by the app');
    }),
    /** Grants (or, negative, deducts) credit with a note; answers the new balance. */
    grantCredit: fromPromise<number, { id: string; amount: number; note: string }>(async () => {
      throw new Error('grantCredit is provided by the app');
    }),
    /** Mails a one-time code that lets the address join with the role. */
    inviteMember: fromPromise<unknown, { email: string; role: MemberRole }>(async () => {
      throw new Error('inviteMember is provided by the app');
    }),
  },
  delays: searchDelays,
  guards: {
    ...searchedListGuards,
    creditIsValid: ({ event }) =>
      event.type === 'GRANT' && creditProblems(event.amount, event.note).length === 0,
    inviteIsValid: ({ event }) => event.type === 'INVITE' && inviteProblems(event.email).length === 0,
  },
  actions: {
    ...searchedListActions<MembersContext, MembersEvent, MemberRecord>(),
    clearChangeError: assign({ changeError: null }),
    replaceMember: assign(({ context }, { member }: { member: MemberRecord }) => ({
      items: context.items.map((item) => (item._id === member._id ? member : item)),
    })),
    assignChangeError: assign((_, { error }: { error: unknown }) => ({ changeError: messageOf(error) })),
    assignTarget: assign({
      target: ({ event }) => {
        assertEvent(event, 'OPEN_CREDIT');
        return event.member;
      },
      problems: [],
    }),
    assignBalance: assign(({ context }, { balance }: { balance: number }) => ({
      items: context.items.map((item) => (item._id === context.target?._id ? { ...item, balance } : item)),
      target: context.target ? { ...context.target, balance } : null,
      problems: [],
    })),
    assignCreditProblems: assign({
      problems: ({ event }) => (event.type === 'GRANT' ? creditProblems(event.amount, event.note) : []),
    }),
    assignInviteProblems: assign({
      problems: ({ event }) => (event.type === 'INVITE' ? inviteProblems(event.email) : []),
    }),
    assignCreditError: assign((_, { error }: { error: unknown }) => ({
      problems: [formProblem(error, ['amount', 'note'] as const)],
    })),
    assignInviteError: assign((_, { error }: { error: unknown }) => ({
      problems: [formProblem(error, ['email', 'role'] as const)],
    })),
    clearProblems: assign({ problems: [] }),
    assignInvited: assign({
      invited: ({ event }) => {
        assertEvent(event, 'INVITE');
        return event.email.trim();
      },
      problems: [],
    }),
    clearInvited: assign({ invited: null, problems: [] }),
    forgetAll: assign(forgotten),
  },
}).createMachine({
  id: 'members',
  description: "The organization's members: search and pages, roles, suspension, credit, invitations.",
  type: 'parallel',
  context: forgotten,

  on: {
    RESET: {
      target: ['.list.idle', '.update.idle', '.credit.closed', '.invite.closed'],
      actions: 'forgetAll',
    },
  },
  states: {
    list: searchedListRegion('The members listed, in pages; a search narrows them.', {
      event: 'LOAD',
      from: ['failed'],
    }),
    update: {
      description: "Changing one member's role, or suspending or reinstating them.",
      initial: 'idle',
      states: {
        idle: {
          description: 'No change under way.',
          on: { CHANGE_MEMBER: 'updating' },
        },
        updating: {
          description: 'Sends the change; an admin cannot change an owner (the server says so).',
          entry: 'clearChangeError',
          invoke: {
            id: 'updateMember',
            src: 'updateMember',
            input: ({ event }) => {
              assertEvent(event, 'CHANGE_MEMBER');
              return { id: event.id, change: event.change };
            },
            onDone: {
              target: 'idle',
              actions: { type: 'replaceMember', params: ({ event }) => ({ member: event.output }) },
            },
            onError: { target: 'idle', actions: { type: 'assignChangeError', params: errorParams } },
          },
        },
      },
    },
    credit: {
      description: 'Granting or deducting credit with a note, in a dialog.',
      initial: 'closed',
      states: {
        closed: {
          description: 'No dialog open.',
          on: {
            OPEN_CREDIT: {
              target: 'open',
              actions: 'assignTarget',
            },
          },
        },
        open: {
          description: 'The dialog asks for an amount and a note.',
          on: {
            GRANT: [
              { guard: 'creditIsValid', target: 'granting', actions: 'clearProblems' },
              { actions: 'assignCreditProblems' },
            ],
            CANCEL: { target: 'closed', actions: 'clearProblems' },
          },
        },
        granting: {
          description: 'Books the credit; one that would take the balance below zero is refused.',
          invoke: {
            id: 'grantCredit',
            src: 'grantCredit',
            input: ({ context, event }) => {
              assertEvent(event, 'GRANT');
              return { id: context.target?._id ?? '', amount: Number(event.amount), note: event.note.trim() };
            },
            onDone: {
              target: 'granted',
              actions: { type: 'assignBalance', params: ({ event }) => ({ balance: event.output }) },
            },
            onError: { target: 'open', actions: { type: 'assignCreditError', params: errorParams } },
          },
        },
        granted: {
          description: 'Booked: the dialog is closed and the new balance announced.',
          on: {
            OPEN_CREDIT: {
              target: 'open',
              actions: 'assignTarget',
            },
          },
        },
      },
    },
    invite: {
      description: 'Inviting someone by email with a role, in a dialog.',
      initial: 'closed',
      states: {
        closed: {
          description: 'No dialog open.',
          on: { OPEN_INVITE: { target: 'open', actions: 'clearInvited' } },
        },
        open: {
          description: 'The dialog asks for the address and the role.',
          on: {
            INVITE: [
              {
                guard: 'inviteIsValid',
                target: 'inviting',
                actions: 'assignInvited',
              },
              { actions: 'assignInviteProblems' },
            ],
            CANCEL: { target: 'closed', actions: 'clearProblems' },
          },
        },
        inviting: {
          description: 'Mails the invitation.',
          invoke: {
            id: 'inviteMember',
            src: 'inviteMember',
            input: ({ event }) => {
              assertEvent(event, 'INVITE');
              return { email: event.email.trim(), role: event.role };
            },
            onDone: 'sent',
            onError: { target: 'open', actions: { type: 'assignInviteError', params: errorParams } },
          },
        },
        sent: {
          description: 'Mailed: the dialog is closed and the address announced.',
          on: { OPEN_INVITE: { target: 'open', actions: 'clearInvited' } },
        },
      },
    },
  },
});
