import { expect } from 'vitest';
import { commandPaletteMachine } from '../../../../machines/commandPalette';
import { ask } from '../../../server/knowledge/support';
import { call, signUp, type TestServer } from '../../../support/app';
import { done, failed } from '../../models';
import type { BrowserModel, PathWorld } from '../runner';
import { apiOf, storeToken } from './session';

const afterSearchDelay = 'xstate.after.searchDelay.commandPalette.palette.debouncing';
/** The account's one conversation, which the palette's search finds by a word of it. */
const title = 'Men are all alike.';
const found = {
  _id: 't1',
  title,
  bot: { _id: 'eliza', name: 'ELIZA' },
  preview: '',
  streaming: false,
  createdAt: '',
  updatedAt: '',
};

/** An account with a conversation with ELIZA, made once for every walk. */
async function account(world: PathWorld) {
  const server = apiOf(world);
  const made = await signUp(server);
  const bots = (await call(server, '/api/v1/bot', { token: made.token })).body as {
    _id: string;
    name: string;
  }[];
  const eliza = bots.find((bot) => bot.name === 'ELIZA')?._id;
  const topic = (await call(server, '/api/v1/topic', { token: made.token, body: { bot: eliza } })).body._id;
  await ask(server as TestServer, made, topic, { text: title });
  return made.token;
}

const searchingStates = ['debouncing', 'searching'];
const paletteState = (snapshot: { value: unknown }) =>
  (snapshot.value as { palette?: string }).palette ?? null;

/**
 * The command palette and the Keyboard shortcuts dialog on the home screen, by keyboard: Ctrl+K,
 * Ctrl+/, Escape, typing in the combobox; the conversation search held until the path answers it.
 */
export const commandPaletteBrowserModel: BrowserModel = {
  name: 'commandPalette',
  machine: commandPaletteMachine,
  chainWalks: true,
  events: [
    { type: 'OPEN' },
    { type: 'SHOW_SHORTCUTS' },
    { type: 'TYPE', query: 'alike' },
    { type: 'TYPE', query: '' },
    { type: afterSearchDelay },
    done('searchConversations', [found]),
    failed('searchConversations'),
    { type: 'RETRY' },
    { type: 'CLOSE' },
  ],
  // The browser cannot hold the typing pause's timer: once typed, the search goes out and is answered
  // before anything else happens (else which held request is whose would be a guess). Typing what the
  // box holds already changes nothing.
  possible: (snapshot, event) => {
    const state = paletteState(snapshot);
    if (state === 'debouncing') return event.type === afterSearchDelay;
    if (state === 'searching') return event.type.startsWith('xstate.');
    return event.type !== 'TYPE' || event.query !== snapshot.context.query;
  },
  requests: {
    searchConversations: { method: 'GET', path: /^\/api\/v1\/topic\?(.*&)?q=/ },
  },
  start: async (world) => {
    world.shared.token ??= await account(world);
    await storeToken(world, world.shared.token as string);
    await world.page.goto(`${world.server.url}/list`);
    await world.page.getByRole('heading', { name: /^Hello, / }).waitFor();
  },
  perform: async ({ page }, event) => {
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    if (event.type === 'OPEN') await page.keyboard.press('Control+K');
    else if (event.type === 'SHOW_SHORTCUTS') await page.keyboard.press('Control+/');
    else if (event.type === 'CLOSE') await page.keyboard.press('Escape');
    else if (event.type === 'TYPE') await palette.getByRole('combobox').fill(event.query as string);
    else if (event.type === 'RETRY') await palette.getByRole('button', { name: 'Retry' }).click();
  },
  expectScreen: async ({ page }, snapshot) => {
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    const shortcuts = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(await shortcuts.count()).toBe(snapshot.matches('shortcuts') ? 1 : 0);
    expect(await palette.count()).toBe(snapshot.matches('palette') ? 1 : 0);
    if (snapshot.matches('shortcuts')) {
      expect(await shortcuts.getByRole('term').allTextContents()).toContain('Open the command palette');
      return;
    }
    const state = paletteState(snapshot);
    if (!state) return;
    const box = palette.getByRole('combobox', { name: 'Search conversations, bots and commands' });
    expect(await box.inputValue()).toBe(snapshot.context.query);
    expect(await box.evaluate((element) => element === document.activeElement)).toBe(true);
    // The actions match nothing typed here; the conversation found is listed under its group.
    const actions = palette.getByRole('group', { name: 'Actions' });
    expect(await actions.count()).toBe(state === 'idle' ? 1 : 0);
    const conversations = palette.getByRole('group', { name: 'Conversations' });
    expect(await conversations.getByRole('option', { name: title }).count()).toBe(state === 'found' ? 1 : 0);
    expect(await palette.getByText('Searching conversations…').count()).toBe(
      searchingStates.includes(state) ? 1 : 0,
    );
    const problem = palette.getByRole('alert');
    expect(await problem.count()).toBe(state === 'failed' ? 1 : 0);
    if (state === 'failed') await problem.getByRole('button', { name: 'Retry' }).waitFor({ timeout: 100 });
    // How many match is said, once known.
    const count = palette.getByRole('status');
    if (state === 'found') expect(await count.textContent()).toBe('One result');
    if (state === 'failed') expect(await count.textContent()).toBe('Nothing matches.');
  },
};
