import { expect } from 'vitest';
import { type SharedSnapshot, sharedConversationMachine } from '../../../../machines/sharedConversation';
import { ask } from '../../../server/knowledge/support';
import { call, signUp, type TestServer } from '../../../support/app';
import { done, failed } from '../../models';
import type { BrowserModel, ModelPath, PathWorld } from '../runner';
import { expectDisabled } from './account';
import { apiOf, storeToken } from './session';

const question = 'Men are all alike.';
const snapshot: SharedSnapshot = {
  _id: 's1',
  title: question,
  bot: { _id: 'b1', name: 'ELIZA', platform: { name: 'builtin' } },
  messages: [
    { role: 'user', text: question, createdAt: '2026-01-02T03:04:05.000Z' },
    { role: 'bot', text: 'In what way?', createdAt: '2026-01-02T03:04:06.000Z' },
  ],
  sharedAt: '2026-01-02T03:05:00.000Z',
};

/** A conversation shared with the organization by one member, and another member who opens it. */
async function sharedOnce(world: PathWorld) {
  const server = apiOf(world) as TestServer;
  const sharer = await signUp(server);
  const viewer = await signUp(server);
  const bots = (await call(server, '/api/v1/bot', { token: sharer.token })).body as {
    _id: string;
    name: string;
  }[];
  const eliza = bots.find((bot) => bot.name === 'ELIZA')?._id;
  const topic = (await call(server, '/api/v1/topic', { token: sharer.token, body: { bot: eliza } })).body._id;
  await ask(server, sharer, topic, { text: question });
  const share = await call(server, `/api/v1/topic/${topic}/share`, {
    token: sharer.token,
    body: { audience: 'organization' },
  });
  if (share.status !== 200) throw new Error(`share failed: ${JSON.stringify(share.body)}`);
  return { url: share.body.url as string, token: viewer.token };
}

/** Continued, the member is in their own copy: only following the link again goes on from there. */
function linkAgainAfterContinuing(path: ModelPath) {
  const events = path.steps.slice(1).map((step) => step.event.type);
  return events.every(
    (type, index) =>
      type !== 'xstate.done.actor.continueShare' ||
      index === events.length - 1 ||
      events[index + 1] === 'LOAD',
  );
}

/**
 * The page of a shared link, for a logged-in member (a visitor's way through the login is the e2e
 * test's): the snapshot read-only, "Continue this conversation" making the member's own copy and
 * opening it, and the link followed back from a login (`?continue=1`) continuing at once.
 */
export const sharedConversationBrowserModel: BrowserModel = {
  name: 'sharedConversation',
  machine: sharedConversationMachine,
  input: { loggedIn: true },
  events: [
    { type: 'LOAD', shareId: 's1' },
    { type: 'LOAD', shareId: 's1', resume: true },
    { type: 'CONTINUE' },
    done('fetchShare', snapshot),
    failed('fetchShare'),
    done('continueShare', { _id: 't9' }),
    failed('continueShare'),
  ],
  serialize: (state) =>
    JSON.stringify([state.value, state.context.resume, !!state.context.snapshot, !!state.context.error]),
  allows: linkAgainAfterContinuing,
  chainWalks: true,
  requests: {
    fetchShare: { method: 'GET', path: /^\/api\/v1\/share\/[A-Za-z0-9_-]+$/ },
    continueShare: { method: 'POST', path: /^\/api\/v1\/share\/[A-Za-z0-9_-]+\/continue$/ },
  },
  start: async (world) => {
    world.shared.link ??= sharedOnce(world);
    const { token } = (await world.shared.link) as { url: string; token: string };
    await storeToken(world, token);
    await world.page.goto(`${world.server.url}/list`);
  },
  perform: async (world, event) => {
    const { page } = world;
    const { url } = (await world.shared.link) as { url: string };
    if (event.type === 'LOAD') {
      world.data.continued = false;
      await page.goto(`${world.server.url}${url}${event.resume ? '?continue=1' : ''}`);
    } else if (event.type === 'CONTINUE')
      await page.getByRole('button', { name: 'Continue this conversation' }).click();
    else if (event.type === 'xstate.done.actor.continueShare') world.data.continued = true;
  },
  expectScreen: async ({ page, data }, state) => {
    if (state.matches('idle')) {
      await page.getByRole('heading', { name: /^Hello, / }).waitFor({ timeout: 100 });
      return;
    }
    const robots = page.locator('meta[name="robots"]');
    if (data.continued) {
      // The copy is the member's own conversation now, open in the chat.
      expect(page.url()).toMatch(/\/topics\/[0-9a-f-]{36}$/);
      await page.getByLabel('Message').waitFor({ timeout: 100 });
      expect(await page.locator('.message.user').first().textContent()).toContain(question);
      expect(await robots.count()).toBe(0);
      return;
    }
    expect(await robots.getAttribute('content')).toBe('noindex');
    if (state.matches('loading')) {
      expect(await page.getByRole('status').filter({ hasText: 'Loading' }).count()).toBe(1);
      return;
    }
    if (state.matches('missing')) {
      await page.getByRole('heading', { name: 'Link not found', level: 1 }).waitFor({ timeout: 100 });
      return;
    }
    // The snapshot, read-only: no message box, and Continue locked while the copy is made.
    await page.getByRole('heading', { name: question, level: 1 }).waitFor({ timeout: 100 });
    expect(await page.locator('.message.bot').first().textContent()).toContain('In what way?');
    expect(await page.getByLabel('Message').count()).toBe(0);
    await expectDisabled(
      page.getByRole('button', { name: 'Continue this conversation' }),
      state.matches('continuing'),
    );
    const problem = page.getByRole('alert');
    expect(await problem.count()).toBe(state.context.error ? 1 : 0);
  },
};
