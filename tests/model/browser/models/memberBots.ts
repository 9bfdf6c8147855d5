import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { type MemberBotRecord, memberBotsMachine } from '../../../../machines/memberBots';
import { admin, loginOwner } from '../../../server/admin/support';
import { signUp } from '../../../support/app';
import { done, failed } from '../../models';
import type { BrowserModel, ModelEvent } from '../runner';
import { expectDisabled } from './account';
import { endsAtLogOut, expectLoggedOut, networkProblem } from './adminList';
import { apiOf, openProfile, storeToken } from './session';

/** The bot each path makes, changes and deletes. */
const mine = 'Parrot expert';
const record: MemberBotRecord = {
  _id: mine,
  name: mine,
  description: '',
  instructions: '',
  starters: [],
  model: 'm',
  files: [],
  tools: [],
  visibility: 'private',
  groups: [],
  retired: false,
};
const draft = {
  name: mine,
  description: '',
  instructions: '',
  starters: [],
  model: 'm',
  files: [],
  tools: [],
  visibility: 'private' as const,
  groups: [],
};
const choices = { models: [{ _id: 'm', name: 'Members model' }], tools: [], groups: [] };

const yourBots = (page: Page) => page.getByRole('region', { name: 'Your bots' });
const hasOwn = (snapshot: AnyMachineSnapshot) => snapshot.context.items.length > 0;
const isOpen = (snapshot: AnyMachineSnapshot) => (snapshot.value as { dialog: string }).dialog !== 'closed';

/**
 * The member's own bots above the catalogue and their dialogs (issue 34): the bot a path makes,
 * changes and deletes; each request held until the path ends it.
 */
export const memberBotsBrowserModel: BrowserModel = {
  name: 'memberBots',
  machine: memberBotsMachine,
  events: [
    { type: 'LOAD' },
    { type: 'RESET' },
    done('fetchMemberBots', []),
    failed('fetchMemberBots'),
    { type: 'RETRY' },
    { type: 'NEW' },
    done('fetchBotChoices', choices),
    failed('fetchBotChoices'),
    { type: 'SAVE', draft },
    done('saveMemberBot', record),
    failed('saveMemberBot'),
    { type: 'CANCEL' },
    { type: 'EDIT', bot: record },
    { type: 'ASK_DELETE', bot: record },
    { type: 'DELETE' },
    done('deleteMemberBot'),
    failed('deleteMemberBot'),
  ],
  // What is shown: the list and the dialog, whether the path's bot exists, the models offered, a refusal.
  serialize: (snapshot) =>
    JSON.stringify([
      snapshot.value,
      hasOwn(snapshot),
      snapshot.context.choices.models.length,
      !!snapshot.context.problem,
      !!snapshot.context.error,
    ]),
  // The catalogue lists the bots as it appears; dialogs need the list; the path's bot exists before it
  // is changed or deleted, and once only; a bot is saved with a model, so once the models came.
  possible: (snapshot, event) => {
    const list = (snapshot.value as { list: string }).list;
    if (event.type === 'LOAD') return true;
    if (['NEW', 'EDIT', 'ASK_DELETE'].includes(event.type) && list !== 'loaded') return false;
    if (event.type === 'NEW') return !hasOwn(snapshot);
    if (event.type === 'EDIT' || event.type === 'ASK_DELETE') return hasOwn(snapshot);
    if (event.type === 'SAVE') return snapshot.context.choices.models.length > 0;
    // Logging out, from the list as it shows, ends the path.
    if (event.type === 'RESET') return list === 'loaded' && !isOpen(snapshot);
    return true;
  },
  chainWalks: true,
  // Logging out empties the list: nothing a path does follows it.
  allows: endsAtLogOut,
  // A model bot runs where a model server is set: the catalogue lists the bot made (never called here).
  server: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
  requests: {
    fetchMemberBots: { method: 'GET', path: /^\/api\/v1\/user\/me\/bot$/ },
    fetchBotChoices: { method: 'GET', path: /^\/api\/v1\/user\/me\/bot\/choices$/ },
    saveMemberBot: { method: 'POST|PATCH', path: /^\/api\/v1\/user\/me\/bot(\/[^/?]+)?$/ },
    deleteMemberBot: { method: 'DELETE', path: /^\/api\/v1\/user\/me\/bot\/[^/?]+$/ },
  },
  start: async (world) => {
    const server = apiOf(world);
    // Once: members may make bots, on one model open to them.
    world.shared.memberBots ??= (async () => {
      const owner = await loginOwner(server, 'app');
      await admin(server, owner, '/settings', { method: 'PATCH', body: { memberBots: true } });
      await admin(server, owner, '/model', {
        body: {
          name: owner.encrypt('Members model'),
          provider: null,
          model: 'members',
          price: 0,
          memberBots: true,
        },
      });
    })();
    await world.shared.memberBots;
    // Each walk its own member: the bot it makes is its own.
    const account = await signUp(server);
    await storeToken(world, account.token);
    await world.page.goto(`${world.server.url}/list`);
  },
  perform: async (world, event: ModelEvent) => {
    const { page } = world;
    const dialog = page.getByRole('dialog').or(page.getByRole('alertdialog'));
    switch (event.type) {
      case 'RETRY':
        await yourBots(page).getByRole('button', { name: 'Retry' }).click();
        break;
      case 'NEW':
        await yourBots(page).getByRole('button', { name: 'Make a bot' }).click();
        break;
      case 'SAVE':
        await dialog.getByLabel('Name').fill(mine);
        await dialog.getByRole('button', { name: /^(Make a bot|Save)$/ }).click();
        break;
      case 'CANCEL':
        await page.keyboard.press('Escape');
        break;
      case 'EDIT':
        await yourBots(page)
          .getByRole('button', { name: `Edit ${mine}` })
          .click();
        break;
      case 'ASK_DELETE':
        await yourBots(page)
          .getByRole('button', { name: `Delete ${mine}` })
          .click();
        break;
      case 'RESET': {
        const panel = await openProfile(world);
        await panel.getByRole('button', { name: 'Log out', exact: true }).click();
        world.data.out = true;
        break;
      }
      case 'DELETE':
        await dialog.getByRole('button', { name: 'Delete bot' }).click();
        break;
    }
  },
  expectScreen: async (world, snapshot) => {
    const { page } = world;
    // Logged out: the landing page, the token gone.
    if (world.data.out) return expectLoggedOut(world);
    const { list, dialog: state } = snapshot.value as { list: string; dialog: string };
    const { problem, error } = snapshot.context;
    const count = async (locator: ReturnType<Page['getByRole']>, expected: number) =>
      expect(await locator.count(), `${locator}`).toBe(expected);
    const form = page.getByRole('dialog', { name: /^(Make a bot|Edit bot)$/ });
    const question = page.getByRole('alertdialog', { name: 'Delete this bot?' });
    await count(form, ['loadingChoices', 'editing', 'saving'].includes(state) ? 1 : 0);
    await count(question, ['confirmingDelete', 'deleting'].includes(state) ? 1 : 0);
    if (state === 'editing') {
      // The model offered once the choices came (the first chosen), none after a failure.
      const chosen = await form.getByLabel('Model').inputValue();
      expect(chosen !== '').toBe(snapshot.context.choices.models.length > 0);
      if (problem) expect(await form.getByRole('alert').first().textContent()).toMatch(networkProblem);
    }
    if (state === 'saving')
      await expectDisabled(form.getByRole('button', { name: /^(Make a bot|Save)$/ }), true);
    if (state === 'deleting')
      await expectDisabled(question.getByRole('button', { name: 'Delete bot' }), true);
    if (state === 'confirmingDelete' && problem)
      expect(await question.getByRole('alert').textContent()).toMatch(networkProblem);
    if (state !== 'closed') return;
    const section = yourBots(page);
    if (list === 'failed') {
      expect(await section.getByRole('alert').textContent()).toMatch(networkProblem);
      expect(error).toBeTruthy();
    }
    if (list === 'loaded') {
      await count(section.getByRole('button', { name: 'Make a bot' }), 1);
      await count(section.getByRole('button', { name: `Edit ${mine}` }), hasOwn(snapshot) ? 1 : 0);
      // A bot made shows in the catalogue under Mine, fetched afresh.
      if (hasOwn(snapshot))
        await page
          .getByRole('region', { name: 'Mine' })
          .getByRole('heading', { name: mine })
          .waitFor({ timeout: 100 });
    }
  },
};
