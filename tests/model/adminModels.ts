import { expect } from 'vitest';
import { type AnyMachineSnapshot, fromCallback } from 'xstate';
import { adminListMachine } from '../../machines/adminList';
import { type AdminBot, botEditorMachine, draftProblems } from '../../machines/botEditor';
import { membersMachine } from '../../machines/members';
import { orgSettingsMachine } from '../../machines/orgSettings';
import { usageMachine } from '../../machines/usage';
import type { MachineModel, ModelEvent, World } from './harness';
import { done, failed, failedOn, recording } from './models';

// The admin area's machines. As in models.ts (whose event helpers they share), invoked actors never
// settle on their own: the generated events say how each call ends.
const lastCall = (world: World, id: string) => world.calls.filter((call) => call.startsWith(`${id} `)).at(-1);

/** Regions of a parallel machine: one of them at a time leaves its resting states, which keeps the graph small. */
function regionEvents(
  regions: Record<string, { resting: string[]; events: ModelEvent[] }>,
  always: ModelEvent[] = [],
) {
  return (snapshot: AnyMachineSnapshot) => {
    const value = snapshot.value as Record<string, string>;
    const away = Object.keys(regions).filter((region) => !regions[region].resting.includes(value[region]));
    return [
      ...always,
      ...Object.keys(regions)
        .filter((region) => away.length === 0 || away.includes(region))
        .flatMap((region) => regions[region].events),
    ];
  };
}

const category = (id: string) => ({ _id: id, name: `Category ${id}` });

export const adminListModel: MachineModel = {
  name: 'adminList',
  provide: (world) =>
    adminListMachine.provide({
      actors: { fetchPage: recording(world, 'fetchPage'), applyChange: recording(world, 'applyChange') },
      actions: { announceChange: ({ context }) => world.calls.push(`announce ${context.done}`) },
    }),
  inputs: [undefined],
  events: regionEvents(
    {
      list: {
        resting: ['idle', 'loaded'],
        events: [
          { type: 'LOAD' },
          { type: 'RELOAD' },
          { type: 'RETRY' },
          { type: 'LOAD_MORE' },
          done('fetchPage', { items: [category('k1'), category('k2')], next: 'cursor-2' }),
          failed('fetchPage'),
          done('fetchMore', { items: [category('k2'), category('k3')], next: null }),
          failed('fetchMore'),
        ],
      },
      change: {
        resting: ['idle'],
        events: [
          { type: 'EDIT', id: 'k1' },
          { type: 'EDIT', id: 'new' },
          { type: 'SAVE', change: { kind: 'create', values: { name: 'Fun' } } },
          { type: 'SAVE', change: { kind: 'update', id: 'k1', values: { name: 'Games' } } },
          { type: 'ASK_REMOVE', record: category('k1') },
          { type: 'CONFIRM' },
          { type: 'CANCEL' },
          done('saveChange', category('k1')),
          failedOn('saveChange', 'name'),
          done('removeRecord'),
          failed('removeRecord'),
        ],
      },
    },
    [{ type: 'RESET' }],
  ),
  serialize: (snapshot) => {
    const { items, next, error, editing, target, problem, done: last } = snapshot.context;
    return JSON.stringify([
      snapshot.value,
      items.map((item: { _id: string }) => item._id),
      next,
      !!error,
      editing,
      target?._id ?? null,
      !!problem,
      last,
    ]);
  },
  check: (snapshot, world, event) => {
    const { context } = snapshot;
    const ids = context.items.map((item: { _id: string }) => item._id);
    // No record is listed twice, however the pages overlap.
    expect(new Set(ids).size).toBe(ids.length);
    if (snapshot.matches({ list: 'loadingMore' }))
      expect(lastCall(world, 'fetchPage')).toBe('fetchPage {"cursor":"cursor-2"}');
    if (snapshot.matches({ list: 'loading' }))
      expect(lastCall(world, 'fetchPage')).toBe('fetchPage {"cursor":""}');
    if (event?.type === 'LOAD_MORE' && context.next === null)
      expect(snapshot.matches({ list: 'loadingMore' })).toBe(false);
    if (snapshot.matches({ list: 'failed' })) expect(context.error).toBe('fetchPage failed');
    // A change is sent as asked; a removal only once confirmed, and for the record confirmed.
    if (event?.type === 'SAVE')
      expect(lastCall(world, 'applyChange')).toBe(
        `applyChange ${JSON.stringify({ change: (event as unknown as { change: unknown }).change })}`,
      );
    if (event?.type === 'CONFIRM')
      expect(lastCall(world, 'applyChange')).toBe('applyChange {"change":{"kind":"remove","id":"k1"}}');
    if (snapshot.matches({ change: 'confirming' })) expect(context.target?._id).toBe('k1');
    // Whatever went through is announced, and the list read afresh.
    if (event?.type === 'xstate.done.actor.saveChange' || event?.type === 'xstate.done.actor.removeRecord') {
      expect(world.calls.filter((call) => call.startsWith('announce')).at(-1)).toBe(
        `announce ${context.done}`,
      );
      expect(snapshot.matches({ list: 'loading' }) || snapshot.matches({ list: 'idle' })).toBe(true);
      expect(context.problem).toBeNull();
    }
    if (event?.type === 'xstate.error.actor.saveChange') {
      expect(snapshot.matches({ change: 'editing' })).toBe(true);
      expect(context.problem).toEqual({ message: 'saveChange refused name', field: 'name' });
    }
    if (event?.type === 'xstate.error.actor.removeRecord')
      expect(context.problem?.message).toBe('removeRecord failed');
    if (snapshot.matches({ change: 'idle' })) expect(context.target).toBeNull();
    if (event?.type === 'RESET') {
      expect(context).toEqual({
        items: [],
        next: null,
        error: null,
        editing: null,
        target: null,
        problem: null,
        done: null,
      });
      expect(snapshot.matches({ list: 'idle', change: 'idle' })).toBe(true);
    }
  },
};

const storedBot: AdminBot = {
  _id: 'b1',
  name: 'Oracle',
  description: 'Answers',
  platform: 'openai',
  provider: 'p1',
  model: 'double-1',
  systemPrompt: 'Be brief.',
  temperature: 0.5,
  price: 0.25,
  categories: ['k1'],
  active: true,
  position: 3,
};
const editorData = (bot: AdminBot | null) => ({
  bot,
  providers: [{ _id: 'p1', name: 'Double' }],
  categories: [category('k1')],
});

export const botEditorModel: MachineModel = {
  name: 'botEditor',
  provide: (world) =>
    botEditorMachine.provide({
      actors: {
        loadEditor: recording(world, 'loadEditor'),
        saveBot: recording(world, 'saveBot'),
        fetchModels: recording(world, 'fetchModels'),
        streamTry: fromCallback(({ input }) => {
          world.calls.push(`streamTry ${JSON.stringify(input)}`);
        }) as never,
      },
      actions: {
        announceSaved: ({ context }, { created }) => world.calls.push(`saved ${context.botId} ${created}`),
      },
    }),
  inputs: [{ botId: null }, { botId: 'b1' }],
  // One thing at a time: a call under way is answered before the admin does anything else.
  events: (snapshot) => {
    const { form, models, tryOut } = snapshot.value as Record<string, string>;
    const botId = snapshot.context.botId as string | null;
    if (form === 'loading' || form === 'failed')
      return [
        { type: 'RETRY' },
        done('loadEditor', editorData(botId ? storedBot : null)),
        failed('loadEditor'),
      ];
    if (tryOut === 'replying')
      return [
        { type: 'TRY_TOKEN', text: 'Hi' },
        { type: 'TRY_DONE' },
        { type: 'TRY_FAILED', message: 'The provider cannot be reached.' },
        { type: 'STOP_TRY' },
      ];
    if (models === 'loading') return [done('fetchModels', ['double-1', 'double-2']), failed('fetchModels')];
    if (form === 'saving')
      return [done('saveBot', { ...storedBot, name: 'Sage' }), failedOn('saveBot', 'name')];
    return [
      { type: 'CHANGE', values: { name: 'Sage' } },
      { type: 'CHANGE', values: { name: ' ', price: '-1' } },
      { type: 'CHANGE', values: { platform: 'builtin' } },
      { type: 'CHANGE', values: { engine: 'eliza' } },
      { type: 'CHANGE', values: { platform: 'openai', provider: 'p1', model: 'double-1' } },
      { type: 'CHANGE', values: { provider: 'p2' } },
      { type: 'SAVE' },
      { type: 'RETRY_MODELS' },
      { type: 'SEND_TRY', text: 'Hello' },
      { type: 'SEND_TRY', text: ' ' },
      { type: 'CLEAR_TRY' },
    ];
  },
  serialize: (snapshot) => {
    const { botId, draft, problems, models, modelsFor, modelsError, transcript, tryError } = snapshot.context;
    return JSON.stringify([
      snapshot.value,
      botId,
      draftProblems(draft).length,
      draft.platform,
      draft.engine,
      draft.provider,
      problems.length,
      models.length,
      modelsFor,
      !!modelsError,
      transcript.length > 0,
      !!tryError,
    ]);
  },
  check: (snapshot, world, event) => {
    const { context } = snapshot;
    const value = snapshot.value as Record<string, string>;
    // Nothing invalid is ever sent: a refused save names every problem next to its field.
    const save = lastCall(world, 'saveBot');
    if (value.form === 'saving') {
      expect(draftProblems(context.draft)).toEqual([]);
      expect(save).toBe(
        `saveBot ${JSON.stringify({ botId: context.botId, request: JSON.parse(save?.slice(8) ?? '{}').request })}`,
      );
      expect(JSON.parse(save?.slice(8) ?? '{}').request.name).toBe(context.draft.name.trim());
    }
    if (event?.type === 'SAVE' && value.form === 'editing' && draftProblems(context.draft).length)
      expect(context.problems).toEqual(draftProblems(context.draft));
    if (event?.type === 'xstate.done.actor.saveBot') {
      expect(value.form).toBe('saved');
      expect(context.botId).toBe('b1');
      expect(world.calls.filter((call) => call.startsWith('saved')).at(-1)).toMatch(
        /^saved b1 (true|false)$/,
      );
    }
    if (event?.type === 'xstate.error.actor.saveBot')
      expect(context.problems).toEqual([{ field: 'name', message: 'saveBot refused name' }]);
    // The model list follows the chosen provider, once per provider.
    if (value.models === 'loading')
      expect(lastCall(world, 'fetchModels')).toBe(`fetchModels {"provider":"${context.draft.provider}"}`);
    if (
      (value.models === 'loaded' || value.models === 'failed') &&
      context.draft.platform === 'openai' &&
      context.draft.provider
    )
      expect(context.modelsFor).toBe(context.draft.provider);
    if (context.draft.platform === 'builtin')
      expect(value.models === 'loading' && event?.type === 'CHANGE').toBe(false);
    // Only a saved bot can be tried; the question goes with the conversation before it.
    if (value.tryOut === 'replying') {
      expect(context.botId).not.toBeNull();
      expect(context.transcript.at(-2)).toEqual({ role: 'user', text: 'Hello' });
      expect(lastCall(world, 'streamTry')).toBe(
        `streamTry ${JSON.stringify({ botId: context.botId, text: 'Hello', history: context.transcript.slice(0, -2) })}`,
      );
    }
    if (event?.type === 'TRY_TOKEN' && value.tryOut === 'replying')
      expect(context.transcript.at(-1)?.text).toMatch(/Hi$/);
    if (event?.type === 'TRY_FAILED') expect(context.tryError).toBe('The provider cannot be reached.');
    if (event?.type === 'CLEAR_TRY' && value.tryOut === 'idle') expect(context.transcript).toEqual([]);
  },
};

const member = (id: string, balance = 10) => ({
  _id: id,
  displayName: `Member ${id}`,
  username: id,
  email: `${id}@example.org`,
  role: 'member' as const,
  status: 'active' as const,
  balance,
});
const afterSearchDelay = 'xstate.after.searchDelay.members.list.debouncing';

export const membersModel: MachineModel = {
  name: 'members',
  provide: (world) =>
    membersMachine.provide({
      actors: {
        fetchMembers: recording(world, 'fetchMembers'),
        updateMember: recording(world, 'updateMember'),
        grantCredit: recording(world, 'grantCredit'),
        inviteMember: recording(world, 'inviteMember'),
      },
    }),
  inputs: [undefined],
  events: regionEvents(
    {
      list: {
        resting: ['idle', 'loaded'],
        events: [
          { type: 'LOAD' },
          { type: 'RETRY' },
          { type: 'LOAD_MORE' },
          { type: 'SEARCH', query: 'ada' },
          { type: 'SEARCH', query: ' ' },
          { type: afterSearchDelay },
          done('fetchMembers', { items: [member('m1'), member('m2')], next: 'cursor-2' }),
          failed('fetchMembers'),
          done('fetchMoreMembers', { items: [member('m2'), member('m3')], next: null }),
          failed('fetchMoreMembers'),
        ],
      },
      update: {
        resting: ['idle'],
        events: [
          { type: 'CHANGE_MEMBER', id: 'm1', change: { role: 'admin' } },
          done('updateMember', { ...member('m1'), role: 'admin' }),
          failed('updateMember'),
        ],
      },
      credit: {
        resting: ['closed', 'granted'],
        events: [
          { type: 'OPEN_CREDIT', member: member('m1') },
          { type: 'GRANT', amount: '5', note: 'Welcome' },
          { type: 'GRANT', amount: '0', note: ' ' },
          { type: 'CANCEL' },
          done('grantCredit', 15),
          failedOn('grantCredit', 'amount'),
        ],
      },
      invite: {
        resting: ['closed', 'sent'],
        events: [
          { type: 'OPEN_INVITE' },
          { type: 'INVITE', email: ' grace@example.org ', role: 'admin' },
          { type: 'INVITE', email: 'grace at example', role: 'member' },
          { type: 'CANCEL' },
          done('inviteMember', { sent: true }),
          failedOn('inviteMember', 'email'),
        ],
      },
    },
    [{ type: 'RESET' }],
  ),
  serialize: (snapshot) => {
    const { items, next, query, shownQuery, error, changeError, target, problems, invited } =
      snapshot.context;
    return JSON.stringify([
      snapshot.value,
      items.length,
      next !== null,
      query.trim() !== '',
      shownQuery !== '',
      !!error,
      !!changeError,
      target?._id ?? null,
      problems.length > 0,
      invited !== null,
    ]);
  },
  check: (snapshot, world, event) => {
    const { context } = snapshot;
    const value = snapshot.value as Record<string, string>;
    const ids = context.items.map((item: { _id: string }) => item._id);
    expect(new Set(ids).size).toBe(ids.length);
    if (event?.type === 'SEARCH') {
      const { query } = event as unknown as { query: string };
      if (query.trim()) expect(value.list).toBe('debouncing');
      else expect(lastCall(world, 'fetchMembers')).toBe('fetchMembers {"query":"","cursor":""}');
    }
    if (event?.type === afterSearchDelay)
      expect(lastCall(world, 'fetchMembers')).toBe('fetchMembers {"query":"ada","cursor":""}');
    if (value.list === 'loadingMore')
      expect(lastCall(world, 'fetchMembers')).toBe(
        `fetchMembers {"query":"${context.shownQuery}","cursor":"cursor-2"}`,
      );
    if (event?.type === 'xstate.done.actor.updateMember' && ids.includes('m1'))
      expect(context.items.find((item: { _id: string }) => item._id === 'm1').role).toBe('admin');
    if (event?.type === 'xstate.error.actor.updateMember')
      expect(context.changeError).toBe('updateMember failed');
    // Credit: only a non-zero amount with a note is booked, for the member the dialog is about.
    if (value.credit === 'granting')
      expect(lastCall(world, 'grantCredit')).toBe('grantCredit {"id":"m1","amount":5,"note":"Welcome"}');
    if (event?.type === 'GRANT' && value.credit === 'open')
      expect(context.problems.map((problem: { field: string }) => problem.field)).toEqual(['amount', 'note']);
    if (event?.type === 'xstate.done.actor.grantCredit') {
      expect(value.credit).toBe('granted');
      expect(context.target.balance).toBe(15);
      if (ids.includes('m1'))
        expect(context.items.find((item: { _id: string }) => item._id === 'm1').balance).toBe(15);
    }
    if (event?.type === 'xstate.error.actor.grantCredit')
      expect(context.problems).toEqual([{ field: 'amount', message: 'grantCredit refused amount' }]);
    // Invitations: a valid address, trimmed, with the role chosen; the address is announced once sent.
    if (value.invite === 'inviting')
      expect(lastCall(world, 'inviteMember')).toBe(
        'inviteMember {"email":"grace@example.org","role":"admin"}',
      );
    if (value.invite === 'sent') expect(context.invited).toBe('grace@example.org');
    if (event?.type === 'INVITE' && value.invite === 'open') expect(context.problems[0]?.field).toBe('email');
    if (event?.type === 'RESET') {
      expect(context.items).toEqual([]);
      expect(value).toEqual({ list: 'idle', update: 'idle', credit: 'closed', invite: 'closed' });
    }
  },
};

const settings = {
  name: 'Acme',
  brandColor: '#1e6b3a',
  logo: '/api/v1/organization/acme/logo?v=1',
  defaultLanguage: 'de',
  currency: 'EUR',
  startingBalance: 5,
  signup: 'invite' as const,
  allowedDomains: [],
};
const png = { type: 'image/png', size: 2048, dataUrl: 'data:image/png;base64,iVBORw0KGgo=' };

export const orgSettingsModel: MachineModel = {
  name: 'orgSettings',
  provide: (world) =>
    orgSettingsMachine.provide({
      actors: {
        fetchSettings: recording(world, 'fetchSettings'),
        saveSettings: recording(world, 'saveSettings'),
      },
      actions: { applyBrand: ({ context }) => world.calls.push(`brand ${context.draft.brandColor || null}`) },
    }),
  inputs: [undefined],
  events: [
    { type: 'LOAD' },
    { type: 'RETRY' },
    { type: 'RESET' },
    done('fetchSettings', settings),
    failed('fetchSettings'),
    { type: 'CHANGE', values: { brandColor: '#ffee00' } },
    {
      type: 'CHANGE',
      values: { brandColor: '#2a2aa8', signup: 'domains', allowedDomains: 'example.org, @Example.com' },
    },
    { type: 'PICK_LOGO', file: png },
    { type: 'PICK_LOGO', file: { type: 'image/gif', size: 10, dataUrl: 'data:image/gif;base64,R0lG' } },
    { type: 'REMOVE_LOGO' },
    { type: 'SAVE' },
    done('saveSettings', { ...settings, brandColor: '#2a2aa8' }),
    failedOn('saveSettings', 'currency'),
  ],
  serialize: (snapshot) => {
    const { draft, problems } = snapshot.context;
    return JSON.stringify([
      snapshot.value,
      draft.brandColor,
      draft.signup,
      draft.logo?.slice(0, 5) ?? null,
      problems.map((problem: { field: string }) => problem.field),
    ]);
  },
  check: (snapshot, world, event) => {
    const { draft, problems } = snapshot.context;
    const save = lastCall(world, 'saveSettings');
    if (snapshot.matches({ ready: 'saving' })) {
      const { settings: sent } = JSON.parse(save?.slice(13) ?? '{}');
      // A colour white text cannot be read on is never stored; domains go lower-case, without @.
      expect(sent.brandColor).not.toBe('#ffee00');
      if (sent.signup === 'domains') expect(sent.allowedDomains).toEqual(['example.org', 'example.com']);
      // The stored logo is left alone; a picked one goes as its data; a removed one as null.
      if (draft.logo === null) expect(sent.logo).toBeNull();
      else if (draft.logo.startsWith('data:'))
        expect(sent.logo).toEqual({ type: 'image/png', data: 'iVBORw0KGgo=' });
      else expect('logo' in sent).toBe(false);
    }
    if (event?.type === 'SAVE' && draft.brandColor === '#ffee00')
      expect(problems.map((problem: { field: string }) => problem.field)).toContain('brandColor');
    if (
      event?.type === 'PICK_LOGO' &&
      (event as unknown as { file: { type: string } }).file.type === 'image/gif'
    )
      expect(problems.some((problem: { field: string }) => problem.field === 'logo')).toBe(true);
    if (event?.type === 'xstate.done.actor.saveSettings') {
      expect(snapshot.matches({ ready: 'saved' })).toBe(true);
      expect(world.calls.at(-1)).toBe('brand #2a2aa8');
    }
    if (event?.type === 'xstate.error.actor.saveSettings')
      expect(problems).toEqual([{ field: 'currency', message: 'saveSettings refused currency' }]);
    if (snapshot.matches('failed')) expect(snapshot.context.loadError).toBe('fetchSettings failed');
    if (event?.type === 'RESET') expect(snapshot.matches('idle')).toBe(true);
  },
};

const report = {
  days: 30,
  since: '2026-01-01',
  currency: 'EUR',
  totals: { messages: 3, replies: 2, spend: 0.5 },
  perDay: [{ date: '2026-01-30', messages: 3, replies: 2, spend: 0.5 }],
  perBot: [],
  perMember: [],
};

export const usageModel: MachineModel = {
  name: 'usage',
  provide: (world) =>
    usageMachine.provide({
      actors: {
        fetchUsage: recording(world, 'fetchUsage'),
        downloadUsage: recording(world, 'downloadUsage'),
      },
    }),
  inputs: [undefined],
  events: [
    { type: 'LOAD' },
    { type: 'RELOAD' },
    { type: 'DOWNLOAD' },
    { type: 'RESET' },
    done('fetchUsage', report),
    failed('fetchUsage'),
    done('downloadUsage'),
    failed('downloadUsage'),
  ],
  serialize: (snapshot) =>
    JSON.stringify([
      snapshot.value,
      !!snapshot.context.report,
      !!snapshot.context.error,
      !!snapshot.context.downloadError,
    ]),
  check: (snapshot, world, event) => {
    const { context } = snapshot;
    const value = snapshot.value as Record<string, string>;
    if (value.report === 'loading') expect(lastCall(world, 'fetchUsage')).toBe('fetchUsage {"days":30}');
    if (value.download === 'downloading') {
      expect(lastCall(world, 'downloadUsage')).toBe('downloadUsage {"days":30}');
      expect(context.downloadError).toBeNull();
    }
    if (value.report === 'loaded') expect(context.report).toEqual(report);
    if (value.report === 'failed') expect(context.error).toBe('fetchUsage failed');
    if (event?.type === 'xstate.error.actor.downloadUsage')
      expect(context.downloadError).toBe('downloadUsage failed');
    if (event?.type === 'RESET')
      expect(context).toEqual({ days: 30, report: null, error: null, downloadError: null });
  },
};

export const adminModels = [adminListModel, botEditorModel, membersModel, orgSettingsModel, usageModel];
