import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { type SsoSettingsContext, ssoSettingsMachine } from '../../../../machines/ssoSettings';
import { call, signUp, type TestServer } from '../../../support/app';
import { type Idp, startIdp } from '../../../support/idpProcess';
import { done, failed, failedOn } from '../../models';
import type { BrowserModel, PathWorld } from '../runner';
import { errorOf, expectDisabled } from './account';
import {
  asOwner,
  endsAtLogOut,
  expectFormLoaded,
  expectLoggedOut,
  logOut,
  networkProblem,
  openAdmin,
  showSection,
} from './adminList';

/** What the owner fills in: the issuer is this file's identity provider (its address is typed in `perform`). */
const filledIn = { issuer: 'https://idp', clientId: 'parley', label: 'Contoso', required: true };
/** A claim name the form takes and the server refuses. */
const badClaim = 'e mail';
/** The settings as the server stores them: required, with the one member's key of the path still working. */
const saved = {
  ...filledIn,
  clientSecret: '',
  scopes: ['openid', 'email', 'profile'],
  claims: { email: 'email', name: 'name', groups: null },
  memberApiKeys: 1,
};
const busyStates = ['saving', 'turningOff', 'revokingKeys'];
/** The form's state, once the form is shown. */
const formState = (snapshot: AnyMachineSnapshot) => (snapshot.value as { ready: string }).ready;

/** The test identity provider, for the issuer's discovery: started with the file's first walk. */
async function identityProvider(world: PathWorld): Promise<Idp> {
  world.shared.idp ??= await startIdp([
    {
      client_id: 'parley',
      redirect_uris: [`${world.server.url}/auth/oidc/callback`],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
  ]);
  return world.shared.idp as Idp;
}

/** One member of `app` with an API key that works, made again after a walk revoked it. */
async function memberKey(world: PathWorld) {
  if (world.shared.memberKey) return;
  const server = world.server as unknown as TestServer;
  const member = await signUp(server);
  const key = await call(server, '/api/v1/user/me/key', {
    tenant: 'app',
    token: member.token,
    body: { name: member.encrypt('script') },
  });
  if (key.status !== 200) throw new Error(`API key refused: ${JSON.stringify(key.body)}`);
  world.shared.memberKey = true;
}

const dialog = (world: PathWorld, name: string) => world.page.getByRole('alertdialog', { name });
const keysSection = (world: PathWorld) =>
  world.page.getByRole('main').getByRole('region', { name: "Members' API keys" });
/** The section's own button (its dialog, opened inside the section, has one of the same name). */
const revokeButton = (world: PathWorld) => keysSection(world).locator(':scope > button');

/**
 * The Sign-in screen of the seeded owner: the identity provider's form, saved against a real
 * identity provider (required: members' passwords stop), turning SSO off, and revoking the members'
 * API keys that still work; left by logging out.
 */
export const ssoSettingsBrowserModel: BrowserModel = {
  name: 'ssoSettings',
  chainWalks: true,
  allows: endsAtLogOut,
  machine: ssoSettingsMachine,
  // The identity provider listens on loopback.
  server: { ALLOW_PRIVATE_PROVIDER_URLS: 'true', OIDC_METADATA_TTL_SECONDS: '0' },
  finish: async (shared) => {
    (shared.idp as Idp | undefined)?.stop();
  },
  events: [
    { type: 'LOAD' },
    { type: 'RETRY' },
    { type: 'RESET' },
    done('fetchSettings', null),
    failed('fetchSettings'),
    { type: 'CHANGE', values: filledIn },
    { type: 'CHANGE', values: { emailClaim: badClaim } },
    { type: 'SAVE' },
    done('saveSettings', saved),
    failedOn('saveSettings', 'claims'),
    { type: 'ASK_TURN_OFF' },
    { type: 'TURN_OFF' },
    done('turnOff'),
    failed('turnOff'),
    { type: 'ASK_REVOKE_KEYS' },
    { type: 'REVOKE_KEYS' },
    done('revokeKeys', { revoked: 1 }),
    failed('revokeKeys'),
    { type: 'CANCEL' },
  ],
  // A state's identity leaves out what was announced last (a save, a turn-off, a failed revocation):
  // every transition is still walked at 1280 px, and the walks stay few (each boots the app).
  serialize: (snapshot) => {
    const { settings, draft, problems, loadError } = snapshot.context as SsoSettingsContext;
    return JSON.stringify([
      snapshot.value,
      settings?.memberApiKeys ?? null,
      draft.issuer !== '',
      draft.emailClaim,
      problems.map((problem) => problem.field),
      !!loadError,
    ]);
  },
  // From SSO off: the form filled in once (and, to be refused, a claim name the server does not take),
  // saved at most once; what a dialog or a failure left behind keeps the rest still.
  possible: (snapshot, event) => {
    const { settings, draft, problems, done: last } = snapshot.context as SsoSettingsContext;
    if (event.type === 'RESET') return snapshot.matches('idle');
    if (event.type === 'CHANGE') {
      const values = event.values as { emailClaim?: string };
      if (values.emailClaim) return draft.issuer !== '' && draft.emailClaim === 'email' && settings === null;
      return draft.issuer === '' && settings === null && last === null;
    }
    if (event.type === 'SAVE') return problems.length === 0 && last === null && settings === null;
    if (event.type === 'xstate.done.actor.saveSettings') return draft.emailClaim !== badClaim;
    if (event.type === 'xstate.error.actor.saveSettings') return draft.emailClaim === badClaim;
    return true;
  },
  requests: {
    fetchSettings: { method: 'GET', path: /^\/api\/v1\/admin\/sso$/ },
    // A claim name with a space is refused by the server.
    saveSettings: { method: 'PUT', path: /^\/api\/v1\/admin\/sso$/, body: /^\{/, fails: 'server' },
    turnOff: { method: 'PUT', path: /^\/api\/v1\/admin\/sso$/, body: /^null$/ },
    revokeKeys: { method: 'POST', path: /^\/api\/v1\/admin\/sso\/revoke-api-keys$/ },
  },
  start: async (world) => {
    const { events } = world;
    await identityProvider(world);
    // Every walk starts with SSO off, as the model does; one that saves has a member's key to count.
    if (world.shared.ssoOn) {
      await asOwner(world, '/api/v1/admin/sso', { method: 'PUT', body: null as never });
      world.shared.ssoOn = false;
    }
    if (events.some((event) => event.type === 'xstate.done.actor.saveSettings')) await memberKey(world);
    await openAdmin(
      world,
      '/admin',
      'Bots',
      events.some((event) => event.type === 'RESET'),
    );
  },
  perform: async (world, event) => {
    const { page } = world;
    const main = page.getByRole('main');
    switch (event.type) {
      case 'LOAD':
        await showSection(world, 'Sign-in');
        break;
      case 'RETRY':
        await page.getByRole('button', { name: 'Retry' }).click();
        break;
      case 'RESET':
        await logOut(world);
        break;
      case 'CHANGE': {
        const values = event.values as Partial<typeof filledIn> & { emailClaim?: string };
        if (values.emailClaim) await main.getByLabel('Email claim').fill(values.emailClaim);
        if (values.issuer) {
          await main.getByLabel('Issuer URL').fill((world.shared.idp as Idp).url);
          await main.getByLabel('Client ID').fill(filledIn.clientId);
          await main.getByLabel('Button label').fill(filledIn.label);
          await main.getByLabel('SSO required').check();
        }
        break;
      }
      case 'SAVE':
        await main.getByRole('button', { name: 'Save' }).click();
        break;
      case 'xstate.done.actor.saveSettings':
        world.shared.ssoOn = true;
        break;
      case 'ASK_TURN_OFF':
        await main.locator('form').getByRole('button', { name: 'Turn off SSO' }).click();
        break;
      case 'TURN_OFF':
        await dialog(world, 'Turn off SSO').getByRole('button', { name: 'Turn off SSO' }).click();
        break;
      case 'xstate.done.actor.turnOff':
        world.shared.ssoOn = false;
        break;
      case 'ASK_REVOKE_KEYS':
        await revokeButton(world).click();
        break;
      case 'REVOKE_KEYS':
        await dialog(world, "Revoke all members' API keys")
          .getByRole('button', { name: "Revoke all members' API keys" })
          .click();
        break;
      case 'xstate.done.actor.revokeKeys':
        world.shared.memberKey = false;
        break;
      case 'CANCEL':
        await page.keyboard.press('Escape');
        break;
    }
  },
  expectScreen: async (world, snapshot) => {
    const { page } = world;
    if (world.data.out) return expectLoggedOut(world);
    const main = page.getByRole('main');
    if (!(await expectFormLoaded(world, snapshot, 'Sign-in'))) return;
    const state = formState(snapshot);

    const { settings, draft, problems, done: last, keysError } = snapshot.context as SsoSettingsContext;
    const busy = busyStates.includes(state);
    // The form as the draft has it (the issuer is the identity provider's address once filled in).
    expect(await main.getByLabel('Issuer URL').inputValue()).toBe(
      draft.issuer ? (world.shared.idp as Idp).url : '',
    );
    expect(await main.getByLabel('Client ID').inputValue()).toBe(draft.clientId);
    expect(await main.getByLabel('Email claim').inputValue()).toBe(draft.emailClaim);
    expect(await main.getByLabel('Button label').inputValue()).toBe(draft.label);
    expect(await main.getByLabel('SSO required').isChecked()).toBe(draft.required);
    // Write-only: the secret field is empty, and says whether one is stored.
    expect(await main.getByLabel('Client secret').inputValue()).toBe('');
    // Each problem next to its field (the claims' under them all), and no other field marked.
    const fields = problems.map((problem) => problem.field);
    for (const [field, label] of [
      ['issuer', 'Issuer URL'],
      ['clientId', 'Client ID'],
      ['label', 'Button label'],
    ] as const) {
      const input = main.getByLabel(label);
      if (fields.includes(field)) expect(await errorOf(input)).toMatch(/./);
      else expect(await input.getAttribute('aria-invalid')).toBeNull();
    }
    expect(await main.locator('#sso-claims-error').count()).toBe(fields.includes('claims') ? 1 : 0);
    if (fields.includes('claims'))
      expect(await main.locator('#sso-claims-error').textContent()).toMatch(/email claim/);
    // A turn-off the network lost: said under the form.
    const formProblem = main.locator('form').getByRole('alert').filter({ hasText: networkProblem });
    expect(await formProblem.count()).toBe(fields.includes(null) ? 1 : 0);
    await expectDisabled(main.getByRole('button', { name: 'Save' }), busy);
    const turnOff = main.locator('form').getByRole('button', { name: 'Turn off SSO' });
    expect(await turnOff.count()).toBe(settings ? 1 : 0);
    if (settings) await expectDisabled(turnOff, busy);
    const announced = { save: 'Saved', off: 'SSO is off.', revoke: 'Their API keys are revoked.' };
    for (const [kind, text] of Object.entries(announced))
      expect(await main.getByRole('status').filter({ hasText: text }).count()).toBe(last === kind ? 1 : 0);

    // The members' keys: counted while SSO is required, revoked after a confirmation.
    const keys = keysSection(world);
    expect(await keys.count()).toBe(settings?.required ? 1 : 0);
    if (settings?.required) {
      expect(await keys.textContent()).toContain(
        `API keys of members and admins that still work: ${settings.memberApiKeys}`,
      );
      const revoke = revokeButton(world);
      expect(await revoke.count()).toBe(settings.memberApiKeys > 0 ? 1 : 0);
      if (settings.memberApiKeys > 0) await expectDisabled(revoke, state !== 'editing');
    }
    const offDialog = dialog(world, 'Turn off SSO');
    expect(await offDialog.count()).toBe(state === 'confirmingOff' || state === 'turningOff' ? 1 : 0);
    if (state === 'confirmingOff' || state === 'turningOff')
      await expectDisabled(offDialog.getByRole('button', { name: 'Turn off SSO' }), state === 'turningOff');
    const keysDialog = dialog(world, "Revoke all members' API keys");
    const asking = state === 'confirmingRevoke' || state === 'revokingKeys';
    expect(await keysDialog.count()).toBe(asking ? 1 : 0);
    if (asking) {
      await expectDisabled(
        keysDialog.getByRole('button', { name: "Revoke all members' API keys" }),
        state === 'revokingKeys',
      );
      expect(await keysDialog.getByRole('alert').filter({ hasText: networkProblem }).count()).toBe(
        keysError ? 1 : 0,
      );
    }
  },
};
