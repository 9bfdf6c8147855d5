import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { feedbackMachine } from '../../../../machines/feedback';
import { ask } from '../../../server/knowledge/support';
import { botIds, call, signUp, type TestServer } from '../../../support/app';
import { done, failed } from '../../models';
import type { BrowserModel, PathWorld } from '../runner';
import { expectDisabled } from './account';
import { networkProblem } from './adminList';
import { apiOf, storeToken } from './session';

interface Conversation {
  token: string;
  topic: string;
  reply: string;
}

/** A conversation with ELIZA, made once: one question and its reply. */
async function elizaConversation(world: PathWorld): Promise<Conversation> {
  const server = apiOf(world);
  const account = await signUp(server);
  const { ELIZA } = await botIds(server);
  const topic = (await call(server, '/api/v1/topic', { token: account.token, body: { bot: ELIZA } })).body
    ._id;
  await ask(server as TestServer, account, topic, { text: 'I feel curious today.' });
  const messages = (await call(server, `/api/v1/topic/${topic}`, { token: account.token })).body.messages;
  return { token: account.token, topic, reply: messages.at(-1)._id };
}

const labels = { up: 'Good', down: 'Bad' } as const;
const titles = { up: 'What was good about this reply?', down: 'What went wrong with this reply?' } as const;
const reply = (world: PathWorld) => world.page.locator('.message.bot').last();
const thumb = (world: PathWorld, rating: 'up' | 'down') =>
  reply(world).getByRole('button', { name: labels[rating], exact: true });

/**
 * The thumbs under a reply of ELIZA's, given with a thumb up before the page opens (so the first screen
 * shows a choice read back from the server): taken back, given down with a reason, changed to up and the
 * reason skipped, with saves failing on the way. Pressing a thumb saves it, then asks for a reason in a
 * dialog (Escape or Skip closes it, focus back on the thumb).
 */
export const feedbackBrowserModel: BrowserModel = {
  name: 'feedback',
  chainWalks: true,
  machine: feedbackMachine,
  input: { topicId: 't1', messageId: 'm1', feedback: { rating: 'up', reason: '' } },
  events: [
    { type: 'RATE', rating: 'up' },
    { type: 'RATE', rating: 'down' },
    { type: 'SEND', reason: 'Too vague' },
    { type: 'SKIP' },
    // What the server answers: what it keeps.
    done('saveRating', { rating: 'up', reason: '' }),
    done('saveRating', { rating: 'down', reason: '' }),
    done('saveRating', null),
    failed('saveRating'),
    done('saveReason', { rating: 'up', reason: 'Too vague' }),
    done('saveReason', { rating: 'down', reason: 'Too vague' }),
    failed('saveReason'),
  ],
  serialize: (snapshot) =>
    JSON.stringify([snapshot.value, snapshot.context.rating, snapshot.context.error !== null]),
  // Down is given from no thumb, up from either: so both thumbs are given, changed and taken back once.
  // The server answers the thumb being saved.
  possible: (snapshot, event) => {
    const { rating } = snapshot.context;
    if (event.type.startsWith('xstate.done.actor.'))
      return ((event.output as { rating: string } | null)?.rating ?? null) === rating;
    if (event.type !== 'RATE') return true;
    return event.rating === 'down' ? rating === null : rating !== null;
  },
  requests: {
    saveRating: {
      method: 'PUT',
      path: /^\/api\/v1\/topic\/[^/]+\/message\/[^/]+\/feedback$/,
      body: /^\{"rating":("up"|"down"|null)\}$/,
    },
    saveReason: {
      method: 'PUT',
      path: /^\/api\/v1\/topic\/[^/]+\/message\/[^/]+\/feedback$/,
      body: /"reason"/,
    },
  },
  start: async (world) => {
    world.shared.conversation ??= elizaConversation(world);
    const { token, topic, reply: message } = (await world.shared.conversation) as Conversation;
    // Every walk starts from the reply given a thumb up earlier (walks share the conversation).
    const given = await call(apiOf(world), `/api/v1/topic/${topic}/message/${message}/feedback`, {
      method: 'PUT',
      token,
      body: { rating: 'up' },
    });
    if (given.status !== 200) throw new Error(`feedback not given: ${JSON.stringify(given.body)}`);
    await storeToken(world, token);
    await world.page.goto(`${world.server.url}/topics/${topic}`);
  },
  perform: async (world, event) => {
    const { page, viewport, data } = world;
    if (event.type === 'RATE') {
      data.closed = false;
      await thumb(world, event.rating as 'up' | 'down').click();
    } else if (event.type === 'SEND') {
      await page
        .getByRole('dialog')
        .getByLabel('Reason')
        .fill(event.reason as string);
      await page.getByRole('dialog').getByRole('button', { name: 'Send' }).click();
    } else if (event.type === 'SKIP') {
      data.closed = true;
      // Escape on a computer, the Skip button on a phone: both close it the same way.
      if (viewport.name === 'phone')
        await page.getByRole('dialog').getByRole('button', { name: 'Skip' }).click();
      else await page.keyboard.press('Escape');
    } else if (event.type === 'xstate.done.actor.saveReason') data.closed = true;
  },
  expectScreen: async (world, snapshot: AnyMachineSnapshot) => {
    const { page, data } = world;
    const { rating, error } = snapshot.context;
    // Saving a thumb shows busy: a press meanwhile would be lost.
    expect(await reply(world).getByRole('group', { name: 'Rate this reply' }).getAttribute('aria-busy')).toBe(
      String(snapshot.matches('rating')),
    );
    // The thumb given is pressed (while it is saved too), the other not.
    for (const side of ['up', 'down'] as const)
      expect(`${side} ${await thumb(world, side).getAttribute('aria-pressed')}`).toBe(
        `${side} ${rating === side}`,
      );
    const asking = snapshot.matches('askingReason') || snapshot.matches('sendingReason');
    const dialog = page.getByRole('dialog');
    expect(await dialog.count()).toBe(asking ? 1 : 0);
    if (asking) {
      const titled = page.getByRole('dialog', { name: titles[rating as 'up' | 'down'] });
      expect(await titled.isVisible()).toBe(true);
      expect(await dialog.evaluate((box) => box.contains(document.activeElement))).toBe(true);
      const send = dialog.getByRole('button', { name: /^Send/ });
      expect(await send.textContent()).toBe(snapshot.matches('sendingReason') ? 'Sending…' : 'Send');
      await expectDisabled(send, snapshot.matches('sendingReason'));
      const problem = dialog.getByRole('alert');
      expect(await problem.count()).toBe(error ? 1 : 0);
      if (error) expect(await problem.textContent()).toMatch(networkProblem);
      return;
    }
    const problem = reply(world).getByRole('alert');
    expect(await problem.count()).toBe(error ? 1 : 0);
    if (error) expect(await problem.textContent()).toMatch(networkProblem);
    // The dialog closed: focus is back on the thumb that opened it.
    if (data.closed && rating)
      expect(await page.evaluate(() => document.activeElement?.textContent ?? '')).toBe(
        labels[rating as 'up' | 'down'],
      );
  },
};
