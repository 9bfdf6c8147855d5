import { expect } from 'vitest';
import { type SavedMemory, savedMemoryMachine } from '../../../../machines/savedMemory';
import { say } from '../../../server/tools/support';
import { call, signUp } from '../../../support/app';
import { type OpenAiDouble, toolSteps } from '../../../support/openai-double';
import { done, failed } from '../../models';
import type { BrowserModel, PathWorld } from '../runner';
import { expectDisabled } from './account';
import { networkProblem } from './adminList';
import { apiOf, storeToken } from './session';

const fact: SavedMemory = { _id: 'm1', text: 'Prefers metric units' };

/**
 * A conversation of the path's own member with the Assistant (its model the OpenAI double), whose
 * reply called `remember`; what the member has saved, as the server lists it.
 */
async function rememberingConversation(world: PathWorld) {
  const server = apiOf(world);
  const member = await signUp(server);
  const bots = (await call(server, '/api/v1/bot', { token: member.token })).body as {
    _id: string;
    name: string;
  }[];
  const assistant = bots.find((bot) => bot.name === 'Assistant')?._id;
  const topic = (await call(server, '/api/v1/topic', { token: member.token, body: { bot: assistant } })).body
    ._id as string;
  const events = await say(server, member, topic, 'Please remember that I prefer metric units.');
  if (events.at(-1)?.event !== 'done') throw new Error(`no reply: ${JSON.stringify(events.at(-1))}`);
  return { token: member.token, topic };
}

/**
 * The "Saved to memory" note under a reply whose model called `remember` (through the OpenAI double,
 * in a conversation the path's member had), opened as a returning member does: Undo deletes the
 * memory (its request held until the path ends it), a failure says why and keeps Undo.
 */
export function savedMemoryBrowserModel({ double }: { double: OpenAiDouble }): BrowserModel {
  double.script(
    toolSteps([
      { call: { name: 'remember', arguments: { text: fact.text } } },
      { answer: () => 'Noted: metric it is.' },
    ]),
  );
  return {
    name: 'savedMemory',
    chainWalks: true,
    machine: savedMemoryMachine,
    input: fact,
    events: [{ type: 'UNDO' }, done('forgetMemory'), failed('forgetMemory')],
    server: { OPENAI_BASE_URL: double.url },
    requests: { forgetMemory: { method: 'DELETE', path: /^\/api\/v1\/memory\/[^/?]+$/ } },
    start: async (world) => {
      const { token, topic } = await rememberingConversation(world);
      world.data.token = token;
      await storeToken(world, token);
      await world.page.goto(`${world.server.url}/topics/${topic}`);
    },
    perform: async ({ page }, event) => {
      if (event.type === 'UNDO') await page.getByRole('log').getByRole('button', { name: 'Undo' }).click();
    },
    expectScreen: async (world, snapshot) => {
      const reply = world.page.getByRole('log').locator('.message.bot').last();
      expect(await reply.textContent()).toContain('Noted: metric it is.');
      const note = reply.locator('.saved-memory');
      expect(await note.textContent()).toContain(fact.text);
      const undo = note.getByRole('button', { name: 'Undo' });
      const alert = note.getByRole('alert');
      if (snapshot.matches('removed')) {
        // Undo is gone with the memory: the sentence that says so has the focus.
        expect(await note.getAttribute('role')).toBe('status');
        expect(await note.textContent()).toMatch(/^Removed from memory/);
        expect(await undo.count()).toBe(0);
        expect(await note.evaluate((element) => element === document.activeElement)).toBe(true);
        const left = await call(apiOf(world), '/api/v1/memory', { token: world.data.token as string });
        expect(left.body).toEqual([]);
        return;
      }
      expect(await note.textContent()).toMatch(/^Saved to memory/);
      // Saved by the model; kept while Undo's request is held or failed.
      const kept = await call(apiOf(world), '/api/v1/memory', { token: world.data.token as string });
      expect(kept.body).toMatchObject([{ text: fact.text, source: 'model' }]);
      await expectDisabled(undo, snapshot.matches('undoing'));
      expect(await alert.count()).toBe(snapshot.context.error ? 1 : 0);
      if (snapshot.context.error) expect(await alert.textContent()).toMatch(networkProblem);
    },
  };
}
