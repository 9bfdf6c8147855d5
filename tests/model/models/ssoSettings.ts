import { type SsoSettings, ssoDraftOf, ssoProblems, ssoSettingsMachine } from '../../../machines/ssoSettings';
import type { MachineModel } from '../harness';
import { expect } from '../harness';
import { done, failed, failedOn, lastCall, recording } from './shared';

/** SSO as stored, required, with two members' keys still working. */
const stored: SsoSettings = {
  issuer: 'https://login.example.com',
  clientId: 'parley',
  clientSecret: '••••cret',
  scopes: ['openid', 'email', 'profile'],
  claims: { email: 'email', name: 'name', groups: null },
  label: 'Contoso',
  required: true,
  memberApiKeys: 2,
};
const filledIn = {
  issuer: ' https://idp.example.org ',
  clientId: 'parley',
  clientSecret: ' s3cret ',
  scopes: 'openid, email',
  label: 'Contoso',
};

export const ssoSettingsModel: MachineModel = {
  name: 'ssoSettings',
  provide: (world) =>
    ssoSettingsMachine.provide({
      actors: {
        fetchSettings: recording(world, 'fetchSettings'),
        saveSettings: recording(world, 'saveSettings'),
        turnOff: recording(world, 'turnOff'),
        revokeKeys: recording(world, 'revokeKeys'),
      },
    }),
  inputs: [undefined],
  events: [
    { type: 'LOAD' },
    { type: 'RETRY' },
    { type: 'RESET' },
    done('fetchSettings', null),
    done('fetchSettings', stored),
    failed('fetchSettings'),
    { type: 'CHANGE', values: filledIn },
    { type: 'CHANGE', values: { issuer: 'login.example.com' } },
    { type: 'CHANGE', values: { emailClaim: 'mail' } },
    { type: 'SAVE' },
    done('saveSettings', { ...stored, issuer: 'https://idp.example.org', clientSecret: '••••cret' }),
    failedOn('saveSettings', 'email'),
    { type: 'ASK_TURN_OFF' },
    { type: 'TURN_OFF' },
    done('turnOff'),
    failed('turnOff'),
    { type: 'ASK_REVOKE_KEYS' },
    { type: 'REVOKE_KEYS' },
    done('revokeKeys', { revoked: 2 }),
    failed('revokeKeys'),
    { type: 'CANCEL' },
  ],
  serialize: (snapshot) => {
    const { settings, draft, problems, done: last, keysError, loadError } = snapshot.context;
    return JSON.stringify([
      snapshot.value,
      settings?.issuer ?? null,
      settings?.memberApiKeys ?? null,
      draft.issuer,
      draft.emailClaim,
      problems.map((problem: { field: string | null }) => problem.field),
      last,
      !!keysError,
      !!loadError,
    ]);
  },
  check: (snapshot, world, event) => {
    const { settings, draft, problems, done: last, keysError } = snapshot.context;
    const fields = problems.map((problem: { field: string | null }) => problem.field);
    if (snapshot.matches({ ready: 'saving' })) {
      // The form goes trimmed; the secret only when one is typed; the scopes as a list.
      const sent = JSON.parse(lastCall(world, 'saveSettings')?.slice('saveSettings '.length) ?? '{}');
      expect(sent.settings).toMatchObject({ issuer: draft.issuer.trim(), clientId: draft.clientId.trim() });
      expect(sent.settings.clientSecret).toBe(draft.clientSecret.trim() || undefined);
      expect(sent.settings.scopes).toContain('openid');
      expect(sent.settings.claims.email).toBe(draft.emailClaim.trim());
    }
    // A form that cannot be right is never sent: each problem at its field.
    if (event?.type === 'SAVE' && !snapshot.matches({ ready: 'saving' }))
      expect(fields).toEqual(ssoProblems(draft).map((problem) => problem.field));
    if (event?.type === 'xstate.done.actor.saveSettings') {
      // Saved: announced, and the form shows what is stored, the secret field empty (write-only).
      expect(last).toBe('save');
      expect(draft).toEqual(ssoDraftOf(settings));
      expect(draft.clientSecret).toBe('');
    }
    // The server's refusal at the form's field it names (its `email` is the email claim).
    if (event?.type === 'xstate.error.actor.saveSettings')
      expect(problems).toEqual([{ field: 'emailClaim', message: 'saveSettings refused email' }]);
    if (event?.type === 'xstate.error.actor.turnOff')
      expect(problems).toEqual([{ field: null, message: 'turnOff failed' }]);
    // A change clears the problems of its fields and those of the whole form, and the announcement.
    if (event?.type === 'CHANGE') {
      const changed = Object.keys((event as unknown as { values: object }).values);
      expect(fields.filter((field: string | null) => field === null || changed.includes(field))).toEqual([]);
      expect(last).toBeNull();
    }
    // Turning off asks first, and only when SSO is on; done, the form is empty again.
    if (snapshot.matches({ ready: 'confirmingOff' })) expect(settings).not.toBeNull();
    if (event?.type === 'xstate.done.actor.turnOff') {
      expect(settings).toBeNull();
      expect(draft).toEqual(ssoDraftOf(null));
      expect(last).toBe('off');
    }
    // Revoking the members' keys asks first, only while SSO is required and some still work.
    if (snapshot.matches({ ready: 'confirmingRevoke' })) {
      expect(settings?.required).toBe(true);
      expect(settings?.memberApiKeys).toBeGreaterThan(0);
      expect(keysError).toBe(event?.type === 'xstate.error.actor.revokeKeys' ? 'revokeKeys failed' : null);
    }
    // Revoked: none works any more, and the form is left as it was.
    if (event?.type === 'xstate.done.actor.revokeKeys') {
      expect(settings?.memberApiKeys).toBe(0);
      expect(last).toBe('revoke');
      expect(draft.required).toBe(true);
    }
    if (snapshot.matches('failed')) expect(snapshot.context.loadError).toBe('fetchSettings failed');
    if (event?.type === 'RESET') {
      expect(snapshot.matches('idle')).toBe(true);
      expect(snapshot.context).toMatchObject({ settings: null, problems: [], done: null, keysError: null });
    }
  },
};
