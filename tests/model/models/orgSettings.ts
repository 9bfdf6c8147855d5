import { orgSettingsMachine } from '../../../machines/orgSettings';
import type { MachineModel } from '../harness';
import { expect } from '../harness';
import { done, failed, failedOn, lastCall, recording } from './shared';

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
      values: {
        brandColor: '#2a2aa8',
        signup: 'domains',
        allowedDomains: 'example.org, @Example.com',
        apiAccess: false,
        memory: false,
        memberBots: true,
      },
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
      // The switches go as they stand.
      expect(sent.apiAccess).toBe(draft.apiAccess);
      expect(sent.publicSharing).toBe(draft.publicSharing);
      expect(sent.memory).toBe(draft.memory);
      expect(sent.memberBots).toBe(draft.memberBots);
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
