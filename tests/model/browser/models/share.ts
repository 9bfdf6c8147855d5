import { expect } from 'vitest';
import { type ShareLink, shareMachine } from '../../../../machines/share';
import { ask } from '../../../server/knowledge/support';
import { call, signUp, type TestServer } from '../../../support/app';
import { done, failed } from '../../models';
import type { BrowserModel, ModelPath, PathWorld } from '../runner';
import { expectDisabled } from './account';
import { networkProblem } from './adminList';
import { apiOf, storeToken } from './session';

const topic = { _id: 't1', title: 'Men are all alike.' };
const link = (audience: ShareLink['audience']): ShareLink => ({
  _id: 's1',
  url: '/s/s1',
  audience,
  sharedAt: '2026-01-02T03:04:05.000Z',
});

/** A new conversation with ELIZA (a share belongs to one conversation: each path has its own). */
async function conversation(world: PathWorld) {
  const server = apiOf(world);
  world.shared.account ??= signUp(server);
  const account = (await world.shared.account) as Awaited<ReturnType<typeof signUp>>;
  const bots = (await call(server, '/api/v1/bot', { token: account.token })).body as {
    _id: string;
    name: string;
  }[];
  const eliza = bots.find((bot) => bot.name === 'ELIZA')?._id;
  const created = (await call(server, '/api/v1/topic', { token: account.token, body: { bot: eliza } })).body
    ._id;
  await ask(server as TestServer, account, created, { text: topic.title });
  return { token: account.token, topic: created as string };
}

/** The request under way in a state of the dialog. */
const requestOf: Record<string, string> = {
  loading: 'findShare',
  sharing: 'shareTopic',
  revoking: 'revokeShare',
};

/**
 * The model's `findShare` finds no link: a walk opens the dialog again only while its conversation has
 * none (never shared, or revoked since). A request the dialog was closed on is still held, and which
 * of two held answers is the app's would be a guess: none of its kind is answered afterwards.
 */
function reopensUnshared(path: ModelPath) {
  let shared = false;
  const abandoned = new Set<string>();
  for (const [index, { event }] of path.steps.slice(1).entries()) {
    const actor = /^xstate\.(done|error)\.actor\.(\w+)$/.exec(event.type)?.[2];
    if (actor && abandoned.has(actor)) return false;
    if (event.type === 'xstate.done.actor.shareTopic') shared = true;
    if (event.type === 'xstate.done.actor.revokeShare') shared = false;
    if (event.type === 'OPEN' && shared) return false;
    const inFlight = requestOf[path.steps[index].state.value as string];
    if (event.type === 'CLOSE' && inFlight) abandoned.add(inFlight);
  }
  return true;
}

/**
 * The Share dialog of a conversation, opened from the chat's menu: the audience, Create link (then the
 * link with Copy, Update link and Revoke link), Close; each request held until the path ends it.
 */
export const shareBrowserModel: BrowserModel = {
  name: 'share',
  machine: shareMachine,
  events: [
    { type: 'OPEN', topic },
    { type: 'CHOOSE', audience: 'public' },
    { type: 'SHARE' },
    { type: 'REVOKE' },
    { type: 'CLOSE' },
    done('findShare', null),
    failed('findShare'),
    done('shareTopic', link('organization')),
    done('shareTopic', link('public')),
    failed('shareTopic'),
    done('revokeShare'),
    failed('revokeShare'),
  ],
  serialize: (snapshot) =>
    JSON.stringify([
      snapshot.value,
      snapshot.context.share?.audience ?? null,
      snapshot.context.audience,
      !!snapshot.context.error,
    ]),
  // The server answers a share for the audience chosen; logging out (RESET) is the session's path.
  // Close is the dialog's: there is none to close while it is closed.
  possible: (snapshot, event) => {
    if (event.type === 'CLOSE') return !snapshot.matches('closed');
    return (
      event.type !== 'xstate.done.actor.shareTopic' ||
      (event.output as ShareLink).audience === snapshot.context.audience
    );
  },
  allows: reopensUnshared,
  chainWalks: true,
  requests: {
    findShare: { method: 'GET', path: /^\/api\/v1\/share\?topic=/ },
    shareTopic: { method: 'POST', path: /^\/api\/v1\/topic\/[^/]+\/share$/ },
    revokeShare: { method: 'DELETE', path: /^\/api\/v1\/share\/[^/?]+$/ },
  },
  start: async (world) => {
    const { token, topic: id } = await conversation(world);
    await storeToken(world, token);
    await world.page.goto(`${world.server.url}/topics/${id}`);
    await world.page.getByRole('heading', { name: topic.title, level: 1 }).waitFor();
  },
  perform: async ({ page }, event) => {
    const dialog = page.getByRole('dialog', { name: 'Share conversation' });
    if (event.type === 'OPEN') {
      await page.getByRole('button', { name: 'Conversation actions', exact: true }).click();
      await page.getByRole('menuitem', { name: 'Share' }).click();
    } else if (event.type === 'CHOOSE')
      await dialog.getByRole('radio', { name: /Anyone with the link/ }).check();
    else if (event.type === 'SHARE')
      await dialog.getByRole('button', { name: /^(Create|Update) link$/ }).click();
    else if (event.type === 'REVOKE') await dialog.getByRole('button', { name: 'Revoke link' }).click();
    else if (event.type === 'CLOSE') await dialog.getByRole('button', { name: 'Close' }).click();
  },
  expectScreen: async ({ page, server }, snapshot) => {
    const dialog = page.getByRole('dialog', { name: 'Share conversation' });
    if (snapshot.matches('closed')) {
      expect(await dialog.count()).toBe(0);
      return;
    }
    await dialog.waitFor({ timeout: 100 });
    const { share, audience, error } = snapshot.context;
    const waiting = snapshot.matches('loading');
    const busy = snapshot.matches('sharing') || snapshot.matches('revoking');
    // The audience chosen (the link's own once it has one), locked while a request is under way.
    const choice = dialog.getByRole('radio', {
      name: audience === 'public' ? /Anyone with the link/ : /People in my organization/,
    });
    expect(await choice.isChecked()).toBe(true);
    expect(await choice.isDisabled()).toBe(waiting || busy);
    // The link, with Copy and Revoke, once shared; the main button says whether it makes or updates it.
    const field = dialog.getByRole('textbox', { name: 'Link' });
    expect(await field.count()).toBe(share ? 1 : 0);
    if (share) expect(await field.inputValue()).toMatch(new RegExp(`^${server.url}/s/[A-Za-z0-9_-]{22,}$`));
    expect(await dialog.getByRole('button', { name: /^Copy/ }).count()).toBe(share ? 1 : 0);
    const revoke = dialog.getByRole('button', { name: 'Revoke link' });
    expect(await revoke.count()).toBe(share ? 1 : 0);
    if (share) await expectDisabled(revoke, busy);
    const main = dialog.getByRole('button', { name: share ? 'Update link' : 'Create link' });
    await expectDisabled(main, waiting || busy);
    const problem = dialog.getByRole('alert');
    expect(await problem.count()).toBe(error ? 1 : 0);
    if (error) expect(await problem.textContent()).toMatch(networkProblem);
  },
};
