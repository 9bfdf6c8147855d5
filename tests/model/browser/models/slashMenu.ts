import { expect } from 'vitest';
import type { Prompt } from '../../../../machines/promptText';
import { matchesOf, slashMenuMachine } from '../../../../machines/slashMenu';
import { call, signUp, type TestServer } from '../../../support/app';
import { done, failed } from '../../models';
import type { BrowserModel, PathWorld } from '../runner';
import { errorOf } from './account';
import { networkProblem } from './adminList';
import { apiOf, storeToken } from './session';

// As the server lists them (by command); the browser clicks and reads them by command and title.
const summary: Prompt = {
  _id: 'p1',
  command: 'sum',
  title: 'Summary',
  text: 'Sum it up.',
  visibility: 'private',
};
const translate: Prompt = {
  _id: 'p2',
  command: 'tr',
  title: 'Translate',
  text: 'Translate {{text}} into {{ language }}.',
  visibility: 'private',
};

const box = ({ page }: PathWorld) => page.getByLabel('Message', { exact: true });
const menu = ({ page }: PathWorld) => page.getByRole('listbox', { name: 'Prompts' });
const dialog = ({ page }: PathWorld) => page.getByRole('dialog', { name: 'Fill in the prompt' });
const optionOf = (world: PathWorld, prompt: Prompt) =>
  menu(world).getByRole('option', { name: `/${prompt.command} ${prompt.title}` });

/**
 * The message box's `/` menu in a chat with ELIZA, for a member with two prompts (one with two
 * placeholders): typed open, filtered, moved through by keys, picked by Enter or a click, closed by
 * Escape; the placeholders asked for in a dialog. Each request for the prompts held until the path
 * lets it through (or fails it as a lost network does).
 */
export const slashMenuBrowserModel: BrowserModel = {
  name: 'slashMenu',
  chainWalks: true,
  machine: slashMenuMachine,
  events: [
    { type: 'TYPE', text: '/' },
    { type: 'TYPE', text: '/t' },
    { type: 'TYPE', text: 'hello' },
    done('listPrompts', [summary, translate]),
    failed('listPrompts'),
    { type: 'RETRY' },
    { type: 'DOWN' },
    { type: 'UP' },
    { type: 'PICK' },
    { type: 'CHOOSE', id: 'p1' },
    { type: 'CHOOSE', id: 'p2' },
    { type: 'CLOSE' },
    { type: 'FILL', values: { text: 'hallo', language: '' } },
    { type: 'FILL', values: { text: 'hallo', language: 'English' } },
    { type: 'CANCEL' },
  ],
  serialize: (snapshot) => {
    const { query, highlighted, missing, prompts } = snapshot.context;
    return JSON.stringify([snapshot.value, query, highlighted, missing, prompts.length]);
  },
  // Few walks: typing opens it from closed, filters and closes it while it shows; a wrong value once, the
  // arrows over the whole list. Closed while it loads, the app aborts the request (the walk no longer
  // holds it).
  possible: (snapshot, event) => {
    const { query, missing } = snapshot.context as { query: string; missing: string[] };
    const listing = snapshot.hasTag('shown');
    switch (event.type) {
      case 'TYPE':
        if (event.text === '/') return snapshot.matches('closed');
        return listing || (event.text === 'hello' && snapshot.matches('dismissed'));
      case 'CLOSE':
        return listing;
      case 'DOWN':
      case 'UP':
        return query === '';
      case 'FILL':
        return (event.values as Record<string, string>).language !== '' || !missing.length;
      default:
        return true;
    }
  },
  requests: { listPrompts: { method: 'GET', path: /^\/api\/v1\/prompt$/ } },
  start: async (world) => {
    if (!world.shared.account) {
      const account = await signUp(apiOf(world));
      const server = world.server as unknown as TestServer;
      for (const { command, title, text } of [summary, translate])
        await call(server, '/api/v1/prompt', { token: account.token, body: { command, title, text } });
      const bots = await call(server, '/api/v1/bot', { token: account.token });
      world.shared.eliza = (bots.body as { _id: string; name: string }[]).find(
        (bot) => bot.name === 'ELIZA',
      )?._id;
      world.shared.account = account;
    }
    await storeToken(world, (world.shared.account as { token: string }).token);
    await world.page.goto(`${world.server.url}/topics/new?bot=${world.shared.eliza}`);
    await box(world).waitFor();
  },
  perform: async (world, event) => {
    world.data.landed = ['PICK', 'CHOOSE', 'FILL'].includes(event.type);
    switch (event.type) {
      case 'TYPE':
        await box(world).fill(event.text as string);
        break;
      case 'DOWN':
        await box(world).press('ArrowDown');
        break;
      case 'UP':
        await box(world).press('ArrowUp');
        break;
      case 'PICK':
        await box(world).press('Enter');
        break;
      case 'CHOOSE':
        await optionOf(world, event.id === translate._id ? translate : summary).click();
        break;
      case 'CLOSE':
        await box(world).press('Escape');
        break;
      case 'RETRY':
        await world.page.getByRole('button', { name: 'Retry' }).click();
        break;
      case 'FILL': {
        const values = event.values as Record<string, string>;
        for (const name of ['text', 'language'])
          await dialog(world).getByLabel(name, { exact: true }).fill(values[name]);
        await dialog(world).getByRole('button', { name: 'Put in the message box' }).click();
        break;
      }
      case 'CANCEL':
        await dialog(world).getByRole('button', { name: 'Cancel' }).click();
        break;
    }
  },
  expectScreen: async (world, snapshot) => {
    const { highlighted, missing, inserted, error, prompts } = snapshot.context as {
      highlighted: number;
      missing: string[];
      inserted: { text: string; count: number };
      error: string | null;
      prompts: Prompt[];
    };
    const shown = snapshot.hasTag('shown');
    const message = box(world);
    // The box is the menu's combobox: expanded while it shows, naming it and the highlighted option.
    expect(await message.getAttribute('role')).toBe('combobox');
    expect(await message.getAttribute('aria-expanded')).toBe(String(shown));
    expect(await menu(world).count()).toBe(shown ? 1 : 0);
    if (shown) {
      const listId = await menu(world).getAttribute('id');
      expect(await message.getAttribute('aria-controls')).toBe(listId);
      const matches = matchesOf(snapshot.context);
      const options = menu(world).getByRole('option');
      expect(await options.count()).toBe(matches.length);
      for (const [index, prompt] of matches.entries())
        expect(await optionOf(world, prompt).getAttribute('aria-selected')).toBe(
          String(index === highlighted),
        );
      const active = matches.length ? await optionOf(world, matches[highlighted]).getAttribute('id') : null;
      expect(await message.getAttribute('aria-activedescendant')).toBe(active);
      if (snapshot.matches('open') && !matches.length)
        expect(
          await world.page
            .getByText(prompts.length ? 'No prompt has this command.' : /No prompts yet/)
            .count(),
        ).toBe(1);
    } else expect(await message.getAttribute('aria-activedescendant')).toBeNull();
    expect(await world.page.getByRole('status').filter({ hasText: 'Loading your prompts…' }).count()).toBe(
      snapshot.matches('loading') ? 1 : 0,
    );
    const problem = world.page
      .getByRole('alert')
      .filter({ has: world.page.getByRole('button', { name: 'Retry' }) });
    expect(await problem.count()).toBe(snapshot.matches('failed') ? 1 : 0);
    if (error && snapshot.matches('failed')) expect(await problem.textContent()).toMatch(networkProblem);
    // The placeholders, each labelled by its name and required; one left empty says so.
    expect(await dialog(world).count()).toBe(snapshot.matches('asking') ? 1 : 0);
    if (snapshot.matches('asking'))
      for (const name of ['text', 'language']) {
        const field = dialog(world).getByLabel(name, { exact: true });
        expect(await field.getAttribute('required')).not.toBeNull();
        if (missing.includes(name)) expect(await errorOf(field)).toContain('Fill this in.');
        else expect(await field.getAttribute('aria-invalid')).toBeNull();
      }
    // A picked prompt lands in the box, nothing sent; focus back in the box.
    if (snapshot.matches('closed') && inserted.count && world.data.landed) {
      expect(await message.inputValue()).toBe(inserted.text);
      expect(await message.evaluate((element) => element === document.activeElement)).toBe(true);
    }
    // Escape closed the menu and kept the text.
    if (snapshot.matches('dismissed')) expect(await message.inputValue()).toMatch(/^\//);
  },
};
