import type { Page, Route } from 'playwright-core';
import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { conversationsMachine } from '../../../../machines/conversations';
import { login } from '../../../server/admin/support';
import { call, signUp, type TestServer, uniqueTag } from '../../../support/app';
import type { OpenAiDouble } from '../../../support/openai-double';
import type { ActorRequest, BrowserModel, ModelEvent, ModelPath, PathWorld, Viewport } from '../runner';
import { endsAtLogOut } from './adminList';
import { HeldReplies, readEvents } from './topic';

type Region = 'list' | 'edit' | 'arrange' | 'export' | 'drawer';
/** Where each region rests; a path has at most one region at work at a time (see `serialize`). */
const resting: Record<Region, string[]> = {
  list: ['idle', 'loaded'],
  edit: ['idle'],
  arrange: ['idle'],
  export: ['idle'],
  drawer: ['closed'],
};
const regionsOf = (snapshot: AnyMachineSnapshot) => snapshot.value as Record<Region, string>;
const atWork = (snapshot: AnyMachineSnapshot) =>
  (Object.keys(resting) as Region[]).filter(
    (region) => !resting[region].includes(regionsOf(snapshot)[region]),
  );

/** A page of the list as the model has it: only its shape matters (more to come, or the end). */
const summary = (id: string) => ({
  _id: id,
  title: id,
  bot: { _id: 'eliza', name: 'ELIZA' },
  preview: 'Hello',
  streaming: false,
  createdAt: '',
  updatedAt: '',
});
/** The conversation each path acts on: the newest of the account, made for the path. */
const c1 = { _id: 'c1', title: 'Lighthouse keeper' };
const renamed = 'Lighthouse log';
const searchDelay = 'xstate.after.searchDelay.conversations.list.debouncing';

const requests: Record<string, ActorRequest> = {
  // The first page, and the next ones after a cursor.
  fetchPage: { method: 'GET', path: /^\/api\/v1\/topic\?cursor=(&|$)/ },
  fetchMore: { method: 'GET', path: /^\/api\/v1\/topic\?cursor=[^&]/ },
  renameConversation: { method: 'PATCH', path: /^\/api\/v1\/topic\/[^/]+$/, body: /"title"/ },
  moveConversation: { method: 'PATCH', path: /^\/api\/v1\/topic\/[^/]+$/, body: /"project"/ },
  changeConversation: { method: 'PATCH', path: /^\/api\/v1\/topic\/[^/]+$/, body: /"pinned"/ },
  deleteConversation: { method: 'DELETE', path: /^\/api\/v1\/topic\/[^/]+$/ },
  exportConversation: { method: 'GET', path: /^\/api\/v1\/topic\/[^/]+\/export(\?|$)/ },
};

interface ListWorld {
  token: string;
  /** The conversation of this path (c1): its id and title as the sidebar lists it. */
  target: { id: string; title: string };
  /** The word only this path's conversation has: what the search looks for. */
  tag: string;
  /** The index of the event performed last (-1 before the first). */
  step: number;
  /** List requests the app dropped for a newer one: held here, never answered. */
  dropped: Route[];
  searched: boolean;
  renamed: boolean;
  deleted: boolean;
  /** The conversation on screen when it was deleted: the chat is left for the home screen. */
  leftChat: boolean;
  editFailed: boolean;
  /** The conversation was pinned: it leads the list under Pinned. */
  pinned: boolean;
  exportFailed: boolean;
  exported: boolean;
  downloads: number;
  loggedOut: boolean;
}
const listOf = (world: PathWorld) => world.data as unknown as ListWorld;

const ends = (actor: string) => [`xstate.done.actor.${actor}`, `xstate.error.actor.${actor}`];
/** Events after which a list request still on its way is dropped for a newer one. */
const newerList = ['REFRESH', 'SEARCH', 'RETRY', 'RESET', 'FILTER'];

/**
 * Whether the path answers the list request the app makes now, or drops it first: the path's next
 * event about the list decides.
 */
function answered(world: PathWorld, actor: 'fetchPage' | 'fetchMore') {
  const next = world.events
    .slice(listOf(world).step + 1)
    .find((event) => ends(actor).includes(event.type) || newerList.includes(event.type));
  return !next || ends(actor).includes(next.type);
}

async function holdRequests(world: PathWorld) {
  await world.page.route('**/api/v1/topic?**', async (route) => {
    const url = new URL(route.request().url());
    if (route.request().method() !== 'GET' || url.pathname !== '/api/v1/topic') return route.fallback();
    const actor = url.searchParams.get('cursor') ? 'fetchMore' : 'fetchPage';
    if (!answered(world, actor)) {
      listOf(world).dropped.push(route);
      return;
    }
    await route.fallback();
  });
}

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Conversations' });
const rowOf = (page: Page, title: string) =>
  sidebar(page).getByRole('link', { name: new RegExp(title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) });
/** The header's drawer button: shown on a phone only, so looked up among hidden elements too. */
const drawerButton = (page: Page) =>
  page.getByRole('button', { name: 'Conversations', exact: true, includeHidden: true });
const phoneSize = { width: 375, height: 740 };
const desktopSize = { width: 1280, height: 800 };
const closeDrawer = (page: Page) => page.keyboard.press('Escape');

/**
 * On a phone, the drawer a person opens to choose a conversation there (choosing one closes it again,
 * so the machine ends where the path says).
 */
async function openDrawerOnPhone(world: PathWorld) {
  if (world.viewport.name === 'phone') await drawerButton(world.page).click();
}

async function menuItem(page: Page, title: string, item: string) {
  await sidebar(page)
    .getByRole('button', { name: `Conversation actions: ${title}` })
    .click();
  await page.getByRole('menuitem', { name: item }).click();
}

/** A conversation with ELIZA through the API, its first message `text`. */
async function conversation(world: PathWorld, token: string, eliza: string, text: string) {
  const api = world.server as unknown as TestServer;
  const topic = await call(api, '/api/v1/topic', { token, body: { bot: eliza } });
  await readEvents(world.server, token, `/api/v1/topic/${topic.body._id}/message`, { text }, 'done');
  return topic.body._id as string;
}

/** The titles of the conversations the app lists from the server's first `pages` pages. */
async function listedByServer(world: PathWorld, token: string, pages: number) {
  const api = world.server as unknown as TestServer;
  const titles: string[] = [];
  let cursor = '';
  for (let page = 0; page < pages; page += 1) {
    const { body } = await call(api, `/api/v1/topic?cursor=${encodeURIComponent(cursor)}`, { token });
    const { items, next } = body as {
      items: { title: string; preview: string | null }[];
      next: string | null;
    };
    titles.push(...items.filter((item) => item.preview !== null).map((item) => item.title));
    if (next === null) break;
    cursor = next;
  }
  return titles;
}

/** What is done in the list itself, in the drawer on a phone. */
const inDrawer = [
  'SEARCH',
  'RETRY',
  'LOAD_MORE',
  'START_RENAME',
  'ASK_DELETE',
  'START_MOVE',
  'CHANGE',
  'FILTER',
];

/** The events that set a region to work. */
const worksOn: Record<string, Region> = {
  LOAD: 'list',
  REFRESH: 'list',
  RETRY: 'list',
  LOAD_MORE: 'list',
  SEARCH: 'list',
  FILTER: 'list',
  START_RENAME: 'edit',
  ASK_DELETE: 'edit',
  START_MOVE: 'arrange',
  CHANGE: 'arrange',
  EXPORT: 'export',
  OPEN_DRAWER: 'drawer',
};

/**
 * What a person can do in a state: the sidebar asks for its list as it appears (LOAD, or a search
 * typed at once); rows are acted on once listed; one region at a time is set to work (a dialog or
 * the drawer covers the rest; the pure model's paths likewise), and nothing else is done meanwhile.
 */
function possible(snapshot: AnyMachineSnapshot, event: ModelEvent, viewport: Viewport) {
  const value = regionsOf(snapshot);
  const onPhone = viewport.name === 'phone';
  // On a phone the list is in the drawer: what is done in it waits for the drawer to open, and the
  // drawer stays open meanwhile. Opening a conversation (to show or export it) closes the drawer.
  if (onPhone && inDrawer.includes(event.type) && value.drawer !== 'open') return false;
  if (onPhone && ['SHOW', 'EXPORT', 'REFRESH'].includes(event.type) && value.drawer !== 'closed')
    return false;
  // Only a search typed can be emptied again; a search finds the path's one conversation, no next page.
  if (event.type === 'SEARCH' && event.query === '' && !snapshot.context.query) return false;
  if (event.type === 'LOAD_MORE' && snapshot.context.shownQuery) return false;
  const working = atWork(snapshot).filter((region) => !(onPhone && region === 'drawer'));
  if (value.list === 'idle') return onPhone ? event.type === 'LOAD' : ['LOAD', 'SEARCH'].includes(event.type);
  const region = worksOn[event.type];
  if (region && working.some((other) => other !== region)) return false;
  // The archived ones (none in this account) are looked at from the list as it shows, unsearched, and
  // left again for all conversations; nothing else is done there.
  const archived = snapshot.context.filter.archived;
  if (event.type === 'FILTER') {
    const toArchived = (event.filter as { archived: boolean }).archived;
    if (toArchived) return !archived && value.list === 'loaded' && !snapshot.context.shownQuery;
    return archived && value.list !== 'debouncing';
  }
  if (archived) return /^(RETRY|xstate\.(done|error)\.actor\.fetchPage)$/.test(event.type);
  if (event.type === 'SHOW') return working.length === 0;
  if (event.type === 'RESET')
    return value.edit === 'idle' && value.arrange === 'idle' && value.drawer === 'closed';
  if (['START_RENAME', 'ASK_DELETE', 'EXPORT', 'START_MOVE', 'CHANGE'].includes(event.type))
    return value.list === 'loaded';
  return true;
}

/**
 * Nothing follows logging out. A chat opened to export, or started to change the list, is the one on
 * screen when deleting, which the model would not know. Nothing is done to the conversation once it
 * is deleted, and a walk starts one new chat (REFRESH) and downloads one file at most. A typed search
 * not waited out is answered by no list afterwards: the browser cannot hold its timer, so it may go out
 * behind the model's back, and which answer is whose would be a guess.
 */
function allows(path: ModelPath) {
  if (!endsAtLogOut(path)) return false;
  const events = path.steps.slice(1).map((step) => step.event.type);
  const opened = events.findIndex((type) => ['EXPORT', 'REFRESH'].includes(type));
  if (opened >= 0 && events.slice(opened).includes('ASK_DELETE')) return false;
  const deleted = events.indexOf('xstate.done.actor.deleteConversation');
  const onTarget = ['SHOW', 'START_RENAME', 'ASK_DELETE', 'EXPORT', 'REFRESH', 'START_MOVE', 'CHANGE'];
  if (deleted >= 0 && events.slice(deleted).some((type) => onTarget.includes(type))) return false;
  const count = (type: string) => events.filter((other) => other === type).length;
  if (count('REFRESH') > 1 || count('xstate.done.actor.exportConversation') > 1) return false;
  // Pinned once, the row's menu says Unpin: a walk pins at most once.
  if (count('xstate.done.actor.changeConversation') > 1) return false;
  if (count('FILTER') > 2) return false;
  const listAnswer = /^xstate\.(done|error)\.actor\.fetch(Page|More)$/;
  return events.every(
    (type, index) =>
      type !== 'SEARCH' ||
      regionsOf(path.steps[index + 1].state).list !== 'debouncing' ||
      events[index + 1] === searchDelay ||
      !events.slice(index + 1).some((later) => listAnswer.test(later)),
  );
}

/**
 * The sidebar's conversations on the home screen of an account with more than a page of them, and
 * the path's own conversation (the newest) to search for, rename, delete, export; the drawer on a phone.
 */
export function conversationsBrowserModel({ double }: { double: OpenAiDouble }): BrowserModel {
  const replies = new HeldReplies(double);
  return {
    name: 'conversations',
    // It holds and drops list, message and reply requests with routes of its own.
    ownRoutes: true,
    machine: conversationsMachine,
    events: [
      { type: 'LOAD' },
      {
        type: 'xstate.done.actor.fetchPage',
        output: { items: [summary('c1'), summary('c2')], next: 'more' },
      },
      { type: 'xstate.error.actor.fetchPage', error: new Error('Failed to fetch') },
      { type: 'REFRESH' },
      { type: 'RETRY' },
      { type: 'LOAD_MORE' },
      { type: 'xstate.done.actor.fetchMore', output: { items: [summary('c3')], next: null } },
      { type: 'xstate.error.actor.fetchMore', error: new Error('Failed to fetch') },
      { type: 'SEARCH', query: 'lighthouse' },
      { type: 'SEARCH', query: '' },
      { type: searchDelay },
      { type: 'OPEN_DRAWER' },
      { type: 'CLOSE_DRAWER' },
      { type: 'SHOW', conversation: c1 },
      { type: 'START_RENAME', conversation: c1 },
      { type: 'RENAME', title: renamed },
      { type: 'CANCEL' },
      { type: 'xstate.done.actor.renameConversation', output: renamed },
      { type: 'xstate.error.actor.renameConversation', error: new Error('Failed to fetch') },
      { type: 'ASK_DELETE', conversation: c1 },
      { type: 'DELETE' },
      { type: 'xstate.done.actor.deleteConversation' },
      { type: 'xstate.error.actor.deleteConversation', error: new Error('Failed to fetch') },
      { type: 'START_MOVE', conversation: c1 },
      { type: 'MOVE', project: null },
      { type: 'xstate.done.actor.moveConversation', output: summary('c1') },
      { type: 'xstate.error.actor.moveConversation', error: new Error('Failed to fetch') },
      { type: 'CHANGE', conversation: c1, change: { pinned: true } },
      { type: 'xstate.done.actor.changeConversation', output: { ...summary('c1'), pinned: true } },
      { type: 'xstate.error.actor.changeConversation', error: new Error('Failed to fetch') },
      { type: 'EXPORT', conversation: c1 },
      { type: 'xstate.done.actor.exportConversation' },
      { type: 'xstate.error.actor.exportConversation', error: new Error('Failed to fetch') },
      { type: 'FILTER', filter: { project: null, archived: true } },
      { type: 'FILTER', filter: { project: null, archived: false } },
      { type: 'RESET' },
    ],
    // The regions are independent: a state is the region at work (a dialog first, then the export,
    // then the drawer, then the list), whatever the others do meanwhile. Before the first list (or
    // after logging out) nothing else shows. And whether the conversation listed (or being deleted)
    // is the one on screen, which decides where deleting it leaves the user.
    serialize: (snapshot) => {
      const value = regionsOf(snapshot);
      if (value.list === 'idle') return 'list.idle';
      const working = atWork(snapshot);
      const region = (['edit', 'arrange', 'export', 'list', 'drawer'] as Region[]).find((name) =>
        working.includes(name),
      );
      const onScreen =
        snapshot.context.open &&
        value.list === 'loaded' &&
        working.every((name) => name === 'edit') &&
        value.edit !== 'renaming' &&
        value.edit !== 'savingTitle';
      const shown = `${region ? `${region}.${value[region]}` : `list.${value.list}`}${onScreen ? ' (on screen)' : ''}`;
      return snapshot.context.filter.archived ? `${shown} (archived)` : shown;
    },
    possible,
    allows,
    chainWalks: true,
    requests,
    server: { OPENAI_BASE_URL: double.url },

    start: async (world) => {
      replies.reset();
      const { page, context } = world;
      const api = world.server as unknown as TestServer;
      if (!world.shared.token) {
        const { token, email, password } = await signUp(api);
        const bots = (await call(api, '/api/v1/bot', { token })).body as { _id: string; name: string }[];
        const idOf = (name: string) => bots.find((bot) => bot.name === name)?._id as string;
        Object.assign(world.shared, {
          token,
          email,
          password,
          eliza: idOf('ELIZA'),
          assistant: idOf('Assistant'),
        });
        // More than a page (30) of conversations.
        for (let index = 0; index < 31; index += 1)
          await conversation(world, token, idOf('ELIZA'), `An ordinary day, number ${index}`);
      }
      const { eliza, email, password } = world.shared as { eliza: string; email: string; password: string };
      // Logging out ends the session: a path that does gets a session of its own.
      const token = world.events.some((event) => event.type === 'RESET')
        ? (await login(api, 'app', email, password)).token
        : (world.shared.token as string);
      const tag = uniqueTag();
      const title = `Lighthouse keeper ${tag}`;
      const id = await conversation(world, token, eliza, title);
      Object.assign(world.data, {
        token,
        target: { id, title },
        tag,
        step: -1,
        dropped: [],
        searched: false,
        renamed: false,
        deleted: false,
        leftChat: false,
        editFailed: false,
        pinned: false,
        exportFailed: false,
        exported: false,
        downloads: 0,
        loggedOut: false,
      } satisfies ListWorld);
      page.on('download', () => {
        listOf(world).downloads += 1;
      });
      await holdRequests(world);
      await context.addInitScript((stored) => localStorage.setItem('token', stored), token);
      await page.goto(`${world.server.url}/list`);
    },

    perform: async (world, event: ModelEvent, index) => {
      const { page } = world;
      const list = listOf(world);
      list.step = index;
      const target = list.target;
      switch (event.type) {
        case 'SEARCH': {
          // The path's own conversation is the one the search finds.
          const query = event.query ? `${event.query} ${list.tag}` : '';
          await sidebar(page).getByLabel('Search conversations').fill(query);
          list.searched = query !== '';
          break;
        }
        case 'REFRESH': {
          // A message stored in a new chat changes the list; the reply (held) changes nothing more.
          await openDrawerOnPhone(world);
          await sidebar(page).getByRole('link', { name: 'New chat' }).click();
          // The drawer may stay over the new chat: the person closes it to type.
          if ((await drawerButton(page).getAttribute('aria-expanded')) === 'true')
            await drawerButton(page).click();
          await page.getByRole('link', { name: 'Chat Assistant' }).click();
          await page.getByLabel('Message').fill(`What changed ${list.tag}?`);
          await page.getByLabel('Message').press('Enter');
          break;
        }
        case 'RETRY':
          await sidebar(page).getByRole('button', { name: 'Retry' }).click();
          break;
        case 'FILTER': {
          const toArchived = (event.filter as { archived: boolean }).archived;
          await sidebar(page)
            .getByRole('button', { name: toArchived ? 'Archived conversations' : 'All conversations' })
            .click();
          break;
        }
        case 'LOAD_MORE':
          await sidebar(page).getByRole('button', { name: 'Show more' }).click();
          break;
        case 'OPEN_DRAWER':
          // On a desktop there is no drawer: the window narrows to a phone's first.
          if (world.viewport.name === 'desktop') await page.setViewportSize(phoneSize);
          await drawerButton(page).click();
          break;
        case 'CLOSE_DRAWER':
          await closeDrawer(page);
          if (world.viewport.name === 'desktop') await page.setViewportSize(desktopSize);
          break;
        case 'SHOW':
          await openDrawerOnPhone(world);
          await rowOf(page, target.title).click();
          await page.getByRole('heading', { name: target.title, level: 1 }).waitFor();
          break;
        case 'START_RENAME':
          await menuItem(page, target.title, 'Rename');
          // A dialog opened afresh forgets what went wrong before (a pin that failed, say).
          list.editFailed = false;
          break;
        case 'RENAME': {
          const dialog = page.getByRole('dialog', { name: 'Rename conversation' });
          await dialog.getByLabel('New title').fill(`${event.title} ${list.tag}`);
          await dialog.getByRole('button', { name: 'Save' }).click();
          break;
        }
        case 'xstate.done.actor.renameConversation':
          list.renamed = true;
          list.target = { ...target, title: `${renamed} ${list.tag}` };
          list.editFailed = false;
          break;
        case 'START_MOVE':
          await menuItem(page, target.title, 'Move to project…');
          list.editFailed = false;
          break;
        case 'MOVE': {
          const dialog = page.getByRole('dialog', { name: 'Move to project' });
          await dialog.getByRole('radio', { name: 'No project' }).check();
          await dialog.getByRole('button', { name: 'Move' }).click();
          break;
        }
        case 'CHANGE':
          await menuItem(page, target.title, 'Pin');
          list.editFailed = false;
          break;
        case 'xstate.done.actor.moveConversation':
          list.editFailed = false;
          break;
        case 'xstate.done.actor.changeConversation':
          list.pinned = true;
          break;
        case 'xstate.error.actor.moveConversation':
        case 'xstate.error.actor.changeConversation':
        case 'xstate.error.actor.renameConversation':
        case 'xstate.error.actor.deleteConversation':
          list.editFailed = true;
          break;
        case 'CANCEL':
          await page
            .getByRole('dialog')
            .or(page.getByRole('alertdialog'))
            .getByRole('button', { name: /^(Keep|Cancel)$/ })
            .click();
          list.editFailed = false;
          break;
        case 'ASK_DELETE':
          await menuItem(page, target.title, 'Delete');
          list.editFailed = false;
          break;
        case 'DELETE':
          await page.getByRole('button', { name: 'Yes, delete' }).click();
          break;
        case 'xstate.done.actor.deleteConversation':
          list.deleted = true;
          list.leftChat = new URL(page.url()).pathname === `/topics/${target.id}`;
          list.editFailed = false;
          break;
        case 'EXPORT':
          // Export is in the chat's menu: the conversation is opened first.
          if (new URL(page.url()).pathname !== `/topics/${target.id}`) {
            await openDrawerOnPhone(world);
            await rowOf(page, target.title).click();
            await page.getByRole('heading', { name: target.title, level: 1 }).waitFor();
          }
          await page.getByRole('main').getByRole('button', { name: 'Conversation actions' }).click();
          await page.getByRole('menuitem', { name: 'Export as Markdown' }).click();
          list.exportFailed = false;
          break;
        case 'xstate.done.actor.exportConversation':
          list.exported = true;
          break;
        case 'xstate.error.actor.exportConversation':
          list.exportFailed = true;
          break;
        case 'RESET':
          await page
            .getByRole('navigation', { name: 'Side panel' })
            .getByRole('button', { name: /^Profile/ })
            .click();
          await page.getByRole('button', { name: 'Log out', exact: true }).click();
          list.loggedOut = true;
          break;
      }
    },

    expectScreen: async (world, snapshot: AnyMachineSnapshot) => {
      const { page } = world;
      const list = listOf(world);
      const value = regionsOf(snapshot);
      const shows = async (locator: ReturnType<Page['getByText']>, count: number) => {
        const shown = await locator.count();
        if (shown !== count) expect(shown, `${locator}`).toBe(count);
      };
      if (list.loggedOut) {
        // The next user sees nothing of this one's conversations.
        await shows(sidebar(page), 0);
        await shows(page.getByText(list.target.title), 0);
        return;
      }
      const nav = sidebar(page);
      // On a phone the list is seen only with the drawer open.
      const listShown = world.viewport.name === 'desktop' || value.drawer === 'open';
      const busy = nav.locator('[aria-busy="true"]');
      const search = nav.getByLabel('Search conversations');
      const row = rowOf(page, list.target.title);
      const rows = nav.getByRole('listitem').getByRole('link');
      // The list region.
      const waiting = ['idle', 'debouncing', 'loading'].includes(value.list);
      if (listShown) await shows(busy, waiting ? 1 : 0);
      if (value.list === 'debouncing' && listShown) expect(await search.inputValue()).toContain(list.tag);
      if (value.list === 'failed' && listShown)
        await shows(nav.getByRole('alert').getByRole('button', { name: 'Retry' }), 1);
      if (value.list === 'loadingMore' && listShown) {
        const more = nav.getByRole('button', { name: 'Loading…' });
        await shows(more, 1);
        expect(await more.isDisabled()).toBe(true);
      }
      // The archived ones: their heading and the way back, nothing archived in this account.
      const archived = snapshot.context.filter.archived;
      if (listShown) {
        await shows(nav.getByRole('heading', { name: 'Archived conversations' }), archived ? 1 : 0);
        await shows(nav.getByRole('button', { name: 'All conversations' }), archived ? 1 : 0);
        await shows(nav.getByRole('button', { name: 'Archived conversations' }), archived ? 0 : 1);
      }
      if (value.list === 'loaded' && listShown && archived) {
        await shows(nav.getByText('No archived conversations.'), 1);
        await shows(rows, 0);
      } else if (value.list === 'loaded' && listShown) {
        const { next, shownQuery } = snapshot.context;
        if (shownQuery) {
          // The server's search: the one match, its words marked.
          await shows(
            nav.getByRole('status').filter({ hasText: /^Conversations found: 1$/ }),
            list.deleted ? 0 : 1,
          );
          await shows(row, list.deleted ? 0 : 1);
          if (!list.deleted) expect(await row.locator('mark').first().textContent()).toMatch(/lighthouse/i);
        } else {
          await shows(nav.getByRole('heading', { name: 'Today' }), 1);
          // The server's page of 30, then the rest: every conversation with a message (an empty one is
          // not listed). One deleted leaves the list without asking it again: the server's page has
          // the next older one by now, the list does not.
          const listed = await listedByServer(world, list.token, next === null ? 2 : 1);
          const expected = listed.length - (list.deleted && next !== null ? 1 : 0);
          expect(await rows.count(), `rows for ${expected} conversations`).toBe(expected);
          await shows(nav.getByRole('button', { name: 'Show more' }), next === null ? 0 : 1);
          await shows(row, list.deleted ? 0 : 1);
        }
        // A next page that failed says so under the list, and so does a pin that failed.
        const changeFailed = value.arrange === 'idle' && !!snapshot.context.changeError;
        await shows(nav.getByRole('alert'), (snapshot.context.error ? 1 : 0) + (changeFailed ? 1 : 0));
        // Pinned, the path's conversation leads the list under Pinned (the account's earlier walks may
        // have pinned others).
        if (!shownQuery && list.pinned && !list.deleted)
          await shows(
            nav.getByRole('region', { name: 'Pinned' }).locator(`a[href="/topics/${list.target.id}"]`),
            1,
          );
      }
      // The edit region: a dialog each, the title saved or the conversation gone afterwards.
      const renameDialog = page.getByRole('dialog', { name: 'Rename conversation' });
      const deleteDialog = page.getByRole('alertdialog', { name: 'Delete this conversation?' });
      await shows(renameDialog, ['renaming', 'savingTitle'].includes(value.edit) ? 1 : 0);
      await shows(deleteDialog, ['confirmingDelete', 'deleting'].includes(value.edit) ? 1 : 0);
      // Moving: the projects and No project, Move locked while the move is sent, what went wrong said.
      const moveDialog = page.getByRole('dialog', { name: 'Move to project' });
      await shows(moveDialog, ['choosingProject', 'moving'].includes(value.arrange) ? 1 : 0);
      if (value.arrange === 'moving')
        expect(await moveDialog.getByRole('button', { name: 'Move' }).isDisabled()).toBe(true);
      if (value.arrange === 'choosingProject')
        await shows(moveDialog.getByRole('alert'), list.editFailed ? 1 : 0);
      if (value.edit === 'savingTitle')
        expect(await renameDialog.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
      if (value.edit === 'deleting')
        expect(await deleteDialog.getByRole('button', { name: 'Yes, delete' }).isDisabled()).toBe(true);
      // What went wrong is said at the title, which is marked invalid.
      if (value.edit === 'renaming' && list.editFailed)
        expect(await renameDialog.getByLabel('New title').getAttribute('aria-invalid')).toBe('true');
      if (value.edit === 'confirmingDelete') {
        await shows(deleteDialog.getByText(list.target.title), 1);
        if (list.editFailed) await shows(deleteDialog.getByRole('alert'), 1);
      }
      if (list.renamed && !list.deleted && !archived && value.list === 'loaded' && listShown)
        await shows(row, 1);
      if (list.leftChat) expect(new URL(page.url()).pathname).toBe('/list');
      // The export region: a status while the file is made, then the download or what went wrong.
      const bar = page.getByRole('main');
      await shows(
        bar.getByRole('status').filter({ hasText: 'Exporting…' }),
        value.export === 'exporting' ? 1 : 0,
      );
      if (value.export === 'idle' && list.exportFailed) await shows(bar.getByRole('alert'), 1);
      if (list.exported) expect(list.downloads).toBe(1);
      // The drawer region: its button says whether it is open; while open, focus stays inside it.
      expect(await drawerButton(page).getAttribute('aria-expanded')).toBe(String(value.drawer === 'open'));
      if (
        value.drawer === 'open' &&
        value.edit === 'idle' &&
        !['choosingProject', 'moving'].includes(value.arrange)
      )
        expect(await nav.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    },
  };
}
