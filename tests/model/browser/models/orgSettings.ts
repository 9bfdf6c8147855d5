import { expect } from 'vitest';
import { orgSettingsMachine, type SettingsDraft } from '../../../../machines/orgSettings';
import { done, failed, failedOn } from '../../models';
import type { BrowserModel } from '../runner';
import { errorOf, expectDisabled } from './account';
import {
  asOwner,
  endsAtLogOut,
  expectFormLoaded,
  expectLoggedOut,
  logOut,
  openAdmin,
  showSection,
} from './adminList';

/** The seeded `app` organization's settings, as the server answers them (checked once per file). */
const stored = {
  name: 'Parley',
  brandColor: null,
  logo: null,
  defaultLanguage: 'en',
  currency: 'EUR',
  startingBalance: 10,
  signup: 'open' as const,
  allowedDomains: [],
  publicSharing: true,
  apiAccess: true,
  memory: true,
  memberBots: false,
};
// Saved with the API turned off: members' keys stop working (the API keys e2e shows that).
const domains = {
  brandColor: '#2a2aa8',
  signup: 'domains' as const,
  allowedDomains: 'example.org, @Example.com',
  apiAccess: false,
  memory: false,
  memberBots: true,
};
// A 1×1 PNG, and a GIF (not a logo format).
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const labels: Partial<Record<keyof SettingsDraft, string>> = {
  name: 'Display name',
  brandColor: 'Brand colour',
  currency: 'Currency',
  startingBalance: 'Starting balance',
  allowedDomains: 'Allowed email domains',
  logo: 'Logo',
};
const fields = Object.keys(labels) as (keyof SettingsDraft)[];
const problemsOf = (snapshot: { context: { problems: { field: string | null }[] } }) =>
  snapshot.context.problems.map((problem) => problem.field);

/** The settings screen of the seeded owner: its fields, logo picker, Save; left by logging out. */
export const orgSettingsBrowserModel: BrowserModel = {
  name: 'orgSettings',
  chainWalks: true,
  allows: endsAtLogOut,
  machine: orgSettingsMachine,
  events: [
    { type: 'LOAD' },
    { type: 'RETRY' },
    { type: 'RESET' },
    done('fetchSettings', stored),
    failed('fetchSettings'),
    { type: 'CHANGE', values: { brandColor: '#ffee00' } },
    { type: 'CHANGE', values: domains },
    { type: 'CHANGE', values: { currency: 'ABC' } },
    {
      type: 'PICK_LOGO',
      file: {
        type: 'image/png',
        size: png.length,
        dataUrl: `data:image/png;base64,${png.toString('base64')}`,
      },
    },
    { type: 'PICK_LOGO', file: { type: 'image/gif', size: 10, dataUrl: 'data:image/gif;base64,R0lG' } },
    { type: 'REMOVE_LOGO' },
    { type: 'SAVE' },
    done('saveSettings', { ...stored, ...domains, allowedDomains: ['example.org', 'example.com'] }),
    failedOn('saveSettings', 'currency'),
  ],
  serialize: (snapshot) => {
    const { draft } = snapshot.context;
    return JSON.stringify([
      snapshot.value,
      draft.brandColor,
      draft.signup,
      draft.currency,
      draft.logo?.slice(0, 5) ?? null,
      problemsOf(snapshot),
      !!snapshot.context.loadError,
    ]);
  },
  // One change at a time from the stored settings; the server refuses a currency it does not know
  // (ABC passes the form's check) and stores the blue brand with the domains.
  possible: (snapshot, event) => {
    const { draft, problems } = snapshot.context as { draft: SettingsDraft; problems: unknown[] };
    const pristine = !draft.brandColor && !draft.logo && draft.currency === 'EUR' && problems.length === 0;
    if (event.type === 'RESET') return snapshot.matches('idle');
    if (event.type === 'xstate.error.actor.saveSettings') return draft.currency === 'ABC';
    if (event.type === 'xstate.done.actor.saveSettings') return draft.brandColor === domains.brandColor;
    // The form is disabled while it is saved; Remove logo is there only with a logo.
    if (event.type === 'REMOVE_LOGO') return !!draft.logo && snapshot.matches({ ready: 'editing' });
    if (event.type === 'CHANGE' || event.type === 'PICK_LOGO')
      return pristine && snapshot.matches({ ready: 'editing' });
    return true;
  },
  requests: {
    fetchSettings: { method: 'GET', path: /^\/api\/v1\/admin\/settings$/ },
    saveSettings: { method: 'PATCH', path: /^\/api\/v1\/admin\/settings$/, fails: 'server' },
  },
  start: async (world) => {
    // The stored settings as the model has them: a path that saved puts them back.
    if (!world.shared.checked) {
      expect(await asOwner(world, '/api/v1/admin/settings')).toMatchObject(stored);
      world.shared.checked = true;
    }
    if (world.shared.saved) {
      const { logo: _, ...settings } = stored;
      await asOwner(world, '/api/v1/admin/settings', { method: 'PATCH', body: settings });
      world.shared.saved = false;
    }
    await openAdmin(
      world,
      '/admin',
      'Bots',
      world.events.some((event) => event.type === 'RESET'),
    );
  },
  perform: async (world, event) => {
    const { page } = world;
    const values = (event.values ?? {}) as Partial<SettingsDraft>;
    switch (event.type) {
      case 'LOAD':
        await showSection(world, 'Settings');
        break;
      case 'RETRY':
        await page.getByRole('button', { name: 'Retry' }).click();
        break;
      case 'RESET':
        await logOut(world);
        break;
      case 'CHANGE':
        if (values.brandColor) await page.getByLabel('Brand colour').fill(values.brandColor);
        if (values.signup) await page.getByLabel('Sign-up').selectOption(values.signup);
        if (values.allowedDomains) await page.getByLabel('Allowed email domains').fill(values.allowedDomains);
        if (values.currency) await page.getByLabel('Currency').fill(values.currency);
        if (values.apiAccess === false) await page.getByRole('switch', { name: 'API access' }).uncheck();
        if (values.memory === false) await page.getByRole('switch', { name: 'Memory' }).uncheck();
        if (values.memberBots) await page.getByRole('switch', { name: "Members' own bots" }).check();
        break;
      case 'PICK_LOGO': {
        const gif = (event.file as { type: string }).type === 'image/gif';
        await page.getByLabel('Logo').setInputFiles({
          name: gif ? 'logo.gif' : 'logo.png',
          mimeType: gif ? 'image/gif' : 'image/png',
          buffer: gif ? Buffer.from('R0lGODlhAQABAAAAACw=', 'base64') : png,
        });
        break;
      }
      case 'REMOVE_LOGO':
        await page.getByRole('button', { name: 'Remove logo' }).click();
        break;
      case 'SAVE':
        await page.getByRole('button', { name: 'Save' }).click();
        break;
      case 'xstate.done.actor.saveSettings':
        world.shared.saved = true;
        break;
    }
  },
  expectScreen: async (world, snapshot) => {
    const { page } = world;
    if (world.data.out) return expectLoggedOut(world);
    const main = page.getByRole('main');
    if (!(await expectFormLoaded(world, snapshot, 'Settings'))) return;

    const { draft, problems } = snapshot.context as {
      draft: SettingsDraft;
      problems: { field: keyof SettingsDraft | null; message: string }[];
    };
    expect(await page.getByLabel('Brand colour').inputValue()).toBe(draft.brandColor);
    expect(await page.getByLabel('Sign-up').inputValue()).toBe(draft.signup);
    expect(await page.getByLabel('Allowed email domains').count()).toBe(draft.signup === 'domains' ? 1 : 0);
    // The switches, as the draft has them.
    expect(await page.getByRole('switch', { name: 'API access' }).isChecked()).toBe(draft.apiAccess);
    expect(await page.getByRole('switch', { name: 'Public sharing' }).isChecked()).toBe(draft.publicSharing);
    expect(await page.getByRole('switch', { name: 'Memory' }).isChecked()).toBe(draft.memory);
    expect(await page.getByRole('switch', { name: "Members' own bots" }).isChecked()).toBe(draft.memberBots);
    // The contrast of white text on the brand colour is spelled out.
    const contrast = main.getByText(/^Contrast with white text/);
    if (draft.brandColor)
      expect(await contrast.textContent()).toMatch(
        draft.brandColor === '#ffee00' ? /too low/ : /easy to read/,
      );
    expect(await main.getByRole('img', { name: 'Current logo' }).count()).toBe(draft.logo ? 1 : 0);
    expect(await main.getByRole('button', { name: 'Remove logo' }).count()).toBe(draft.logo ? 1 : 0);
    // Each problem next to its field, and no other field marked.
    for (const field of fields) {
      const input = page.getByLabel(labels[field] as string, { exact: true });
      if ((await input.count()) === 0) continue;
      const problem = problems.find((item) => item.field === field);
      if (problem) expect(await errorOf(input)).toMatch(field === 'currency' ? /ABC is not a currency/ : /./);
      else expect(await input.getAttribute('aria-invalid')).toBeNull();
    }
    await expectDisabled(main.getByRole('button', { name: 'Save' }), snapshot.matches({ ready: 'saving' }));
    const saved = snapshot.matches({ ready: 'saved' });
    expect(await main.getByRole('status').filter({ hasText: 'Saved' }).count()).toBe(saved ? 1 : 0);
    // The saved brand colour is the page's at once.
    if (saved)
      expect(await page.evaluate(() => document.documentElement.style.getPropertyValue('--brand'))).toBe(
        draft.brandColor,
      );
  },
};
