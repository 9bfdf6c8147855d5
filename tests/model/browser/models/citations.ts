import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { citationsMachine } from '../../../../machines/citations';
import type { Citation } from '../../../../machines/messageTree';
import { upload } from '../../../server/files/support';
import { ask, makePages } from '../../../server/knowledge/support';
import { call, signUp, type TestServer } from '../../../support/app';
import type { BrowserModel, PathWorld } from '../runner';
import { apiOf, storeToken } from './session';

const passage = 'Bicycles are parked in the courtyard behind building C';
const cited: Citation = { n: 1, fileId: 'f1', name: 'handbook.pdf', page: 2, snippet: passage };

/** A conversation with the Librarian, made once: a PDF attached, then a question it answers with [1]. */
async function librarianConversation(world: PathWorld) {
  const server = apiOf(world);
  const account = await signUp(server);
  const bots = (await call(server, '/api/v1/bot', { token: account.token })).body as {
    _id: string;
    name: string;
  }[];
  const librarian = bots.find((bot) => bot.name === 'Librarian')?._id;
  const pdf = await makePages(['Office handbook', `Commuting. ${passage}, next to the loading bay.`]);
  const file = await upload(server, account, pdf, 'handbook.pdf');
  const topic = (await call(server, '/api/v1/topic', { token: account.token, body: { bot: librarian } })).body
    ._id;
  await ask(server as TestServer, account, topic, { text: 'Here is the handbook.', files: [file.body._id] });
  const answer = await ask(server as TestServer, account, topic, { text: 'Where are bicycles parked?' });
  if (!answer.done?.citations?.length) throw new Error(`the Librarian cited nothing: ${answer.text}`);
  return { token: account.token, topic };
}

/**
 * The passages a reply cites, in a conversation where the Librarian quoted an attached PDF: its [1]
 * marker (on a phone, its entry under Sources) opens the passage in a panel; Escape (on a phone, Close)
 * shuts it and gives focus back.
 */
export const citationsBrowserModel: BrowserModel = {
  name: 'citations',
  chainWalks: true,
  machine: citationsMachine,
  events: [{ type: 'SHOW_CITATION', messageId: 'm1', citation: cited }, { type: 'CLOSE' }],
  start: async (world: PathWorld) => {
    world.shared.conversation ??= librarianConversation(world);
    const { token, topic } = (await world.shared.conversation) as { token: string; topic: string };
    await storeToken(world, token);
    await world.page.goto(`${world.server.url}/topics/${topic}`);
  },
  perform: async ({ page, viewport, data }: PathWorld, event) => {
    const reply = page.locator('.message.bot').last();
    if (event.type === 'SHOW_CITATION')
      return viewport.name === 'phone'
        ? reply.getByRole('button', { name: '[1] handbook.pdf, page 2' }).click()
        : reply.getByRole('link', { name: '[1]' }).first().click();
    data.closed = true;
    return viewport.name === 'phone'
      ? page.getByRole('dialog').getByRole('button', { name: 'Close' }).click()
      : page.keyboard.press('Escape');
  },
  expectScreen: async ({ page, data }: PathWorld, snapshot: AnyMachineSnapshot) => {
    const reply = page.locator('.message.bot').last();
    const dialog = page.getByRole('dialog', { name: 'Source [1]' });
    // The reply quotes the passage, marks it [1] and lists its source with the page.
    expect(await reply.textContent()).toContain(passage);
    expect(await reply.getByRole('link', { name: '[1]' }).count()).toBeGreaterThan(0);
    expect(await reply.getByRole('button', { name: '[1] handbook.pdf, page 2' }).isVisible()).toBe(true);
    if (snapshot.matches('open')) {
      expect(await dialog.isVisible()).toBe(true);
      expect(await dialog.textContent()).toContain('handbook.pdf, page 2');
      expect(await dialog.locator('blockquote').textContent()).toContain(passage);
      // Focus is in the panel, so Escape and Tab act there.
      expect(await dialog.evaluate((box) => box.contains(document.activeElement))).toBe(true);
    } else {
      expect(await dialog.count()).toBe(0);
      // Closed again: focus is back on what opened it.
      if (data.closed)
        expect(await page.evaluate(() => document.activeElement?.textContent ?? '')).toMatch(/^\[1\]/);
    }
  },
};
