import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { type ProjectRecord, projectsMachine } from '../../../../machines/projects';
import { admin, loginOwner } from '../../../server/admin/support';
import { call, signUp, type TestServer } from '../../../support/app';
import { done, failed } from '../../models';
import type { BrowserModel, ModelEvent, PathWorld } from '../runner';
import { expectDisabled } from './account';
import { endsAtLogOut, expectLoggedOut, networkProblem } from './adminList';
import { apiOf, openProfile, storeToken } from './session';

/** The project another member shares with a group the path's account is in, and the one the path makes. */
const theirs = 'Lisbon guide';
const mine = 'Trip notes';
const record = (name: string, shared: boolean): ProjectRecord => ({
  _id: name,
  name,
  instructions: '',
  bot: null,
  files: [],
  knowledgeBases: [],
  groups: [],
  owner: { _id: 'u', name: 'Owner' },
  shared,
});
const draft = { name: mine, instructions: 'Be brief.', bot: null, files: [], knowledgeBases: [], groups: [] };

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Conversations' });
const hasOwn = (snapshot: AnyMachineSnapshot) =>
  snapshot.context.items.some((item: ProjectRecord) => !item.shared);

/** On a phone the sidebar is a drawer: opened first (a dialog it opened closes nothing). */
async function showSidebar({ page, viewport }: PathWorld) {
  if (viewport.name !== 'phone') return;
  const button = page.getByRole('button', { name: 'Conversations', exact: true });
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
}

/** Opens a project in the sidebar, unless it is open, and presses one of its overview's buttons. */
async function inProject(world: PathWorld, name: string, shared: boolean, action: string) {
  await showSidebar(world);
  const nav = sidebar(world.page);
  const overview = nav.getByRole('region', { name: new RegExp(name) });
  // Open already (one just made opens at once), or chosen in the list (back to it from another first).
  if (!(await overview.count())) {
    const back = nav.getByRole('button', { name: 'All conversations' });
    if (await back.count()) await back.click();
    await nav.getByRole('button', { name: shared ? `${name} Shared` : name, exact: true }).click();
  }
  await overview.getByRole('button', { name: action }).click();
}

/**
 * The sidebar's projects and their dialogs: a project shared with the account's group (read-only), one
 * the path makes, changes and deletes; each request held until the path ends it.
 */
export const projectsBrowserModel: BrowserModel = {
  name: 'projects',
  machine: projectsMachine,
  events: [
    { type: 'LOAD' },
    { type: 'RESET' },
    done('fetchProjects', [record(theirs, true)]),
    failed('fetchProjects'),
    { type: 'RETRY' },
    { type: 'NEW' },
    done('fetchChoices', { groups: [], knowledgeBases: [] }),
    failed('fetchChoices'),
    { type: 'SAVE', draft },
    done('saveProject', record(mine, false)),
    failed('saveProject'),
    { type: 'CANCEL' },
    { type: 'EDIT', project: record(mine, false) },
    { type: 'EDIT', project: record(theirs, true) },
    { type: 'ASK_DELETE', project: record(mine, false) },
    { type: 'DELETE', conversations: 'keep' },
    done('deleteProject'),
    failed('deleteProject'),
  ],
  // What is shown: the list and the dialog, whether the path's own project exists, and a refusal.
  serialize: (snapshot) =>
    JSON.stringify([snapshot.value, hasOwn(snapshot), !!snapshot.context.problem, !!snapshot.context.error]),
  // The sidebar lists the projects as it appears; dialogs need the list, and the path's own project
  // exists before it is changed or deleted, and once only.
  possible: (snapshot, event) => {
    const list = (snapshot.value as { list: string }).list;
    if (event.type === 'LOAD') return true;
    if (['NEW', 'EDIT', 'ASK_DELETE'].includes(event.type) && list !== 'loaded') return false;
    if (event.type === 'NEW') return !hasOwn(snapshot);
    if (event.type === 'ASK_DELETE') return hasOwn(snapshot);
    if (event.type === 'EDIT') return (event.project as ProjectRecord).shared || hasOwn(snapshot);
    // Logging out, from the list as it shows, ends the path.
    if (event.type === 'RESET')
      return list === 'loaded' && (snapshot.value as { dialog: string }).dialog === 'closed';
    return true;
  },
  chainWalks: true,
  // Logging out empties the list: nothing a path does follows it.
  allows: endsAtLogOut,
  requests: {
    fetchProjects: { method: 'GET', path: /^\/api\/v1\/project$/ },
    fetchChoices: { method: 'GET', path: /^\/api\/v1\/project\/choices$/ },
    saveProject: { method: 'POST|PATCH', path: /^\/api\/v1\/project(\/[^/?]+)?$/ },
    deleteProject: { method: 'DELETE', path: /^\/api\/v1\/project\/[^/?]+\?conversations=/ },
  },
  start: async (world) => {
    const server = apiOf(world);
    // Made once: the group, its owner's project shared with it.
    world.shared.group ??= (async () => {
      const owner = await loginOwner(server, 'app');
      const sharer = await signUp(server);
      const group = (await admin(server, owner, '/group', { body: { name: owner.encrypt('Guides') } })).body
        ._id as string;
      await call(server as TestServer, '/api/v1/project', {
        token: sharer.token,
        body: { name: sharer.encrypt(theirs), instructions: 'Answer in Portuguese.', groups: [group] },
      });
      return { owner, group, members: [] as string[] };
    })();
    const shared = (await world.shared.group) as {
      owner: Awaited<ReturnType<typeof loginOwner>>;
      group: string;
      members: string[];
    };
    // Each walk its own member of the group: the projects it makes are its own.
    const account = await signUp(server);
    shared.members.push(account.id);
    await admin(server, shared.owner, `/group/${shared.group}/members`, {
      method: 'PUT',
      body: { members: shared.members },
    });
    await storeToken(world, account.token);
    await world.page.goto(`${world.server.url}/list`);
  },
  perform: async (world, event: ModelEvent) => {
    const { page } = world;
    const dialog = page.getByRole('dialog').or(page.getByRole('alertdialog'));
    switch (event.type) {
      case 'RETRY':
        await showSidebar(world);
        await sidebar(page)
          .getByRole('region', { name: 'Projects' })
          .getByRole('button', { name: 'Retry' })
          .click();
        break;
      case 'NEW': {
        await showSidebar(world);
        // New project is in the list of projects: from an open project, back to it first.
        const back = sidebar(page).getByRole('button', { name: 'All conversations' });
        if (await back.count()) await back.click();
        await sidebar(page).getByRole('button', { name: 'New project' }).click();
        break;
      }
      case 'SAVE':
        await dialog.getByLabel('Name').fill(mine);
        await dialog.getByRole('button', { name: /^(Create project|Save)$/ }).click();
        break;
      case 'CANCEL':
        await page.keyboard.press('Escape');
        break;
      case 'EDIT': {
        const project = event.project as ProjectRecord;
        await inProject(world, project.name, project.shared, project.shared ? 'Details' : 'Edit project');
        break;
      }
      case 'ASK_DELETE':
        await inProject(world, mine, false, 'Delete project');
        break;
      case 'RESET': {
        const panel = await openProfile(world);
        await panel.getByRole('button', { name: 'Log out', exact: true }).click();
        world.data.out = true;
        break;
      }
      case 'DELETE':
        await dialog.getByRole('button', { name: 'Delete project' }).click();
        break;
    }
  },
  expectScreen: async (world, snapshot) => {
    const { page, viewport } = world;
    // Logged out: the landing page, the token gone.
    if (world.data.out) return expectLoggedOut(world);
    const { list, dialog: state } = snapshot.value as { list: string; dialog: string };
    const { problem, error } = snapshot.context;
    const count = async (locator: ReturnType<Page['getByRole']>, expected: number) =>
      expect(await locator.count(), `${locator}`).toBe(expected);
    const form = page.getByRole('dialog', { name: /^(New|Edit) project$/ });
    const details = page.getByRole('dialog', { name: theirs });
    const question = page.getByRole('alertdialog', { name: 'Delete this project?' });
    await count(form, ['loadingChoices', 'editing', 'saving'].includes(state) ? 1 : 0);
    await count(details, state === 'reading' ? 1 : 0);
    await count(question, ['confirmingDelete', 'deleting'].includes(state) ? 1 : 0);
    if (state === 'saving')
      await expectDisabled(form.getByRole('button', { name: /^(Create project|Save)$/ }), true);
    if (state === 'editing' && problem)
      expect(await form.getByRole('alert').textContent()).toMatch(networkProblem);
    // A shared project is read, never changed: no control to save or delete it.
    if (state === 'reading') {
      await details.getByText('Answer in Portuguese.').waitFor({ timeout: 100 });
      await count(details.getByRole('button', { name: /Save|Delete/ }), 0);
    }
    if (state === 'deleting')
      await expectDisabled(question.getByRole('button', { name: 'Delete project' }), true);
    if (state === 'confirmingDelete' && problem)
      expect(await question.getByRole('alert').textContent()).toMatch(networkProblem);
    // The list, seen in the sidebar (a drawer on a phone, when open).
    const nav = sidebar(page);
    const visible = viewport.name === 'desktop' || (await nav.isVisible());
    if (!visible || state !== 'closed') return;
    const section = nav.getByRole('region', { name: 'Projects' });
    if (list === 'failed') {
      expect(await section.getByRole('alert').textContent()).toMatch(networkProblem);
      expect(error).toBeTruthy();
    }
    if (list === 'loaded') {
      // Listed, or one of them open above the conversations (a project just made opens at once).
      const open = nav.getByRole('region', { name: new RegExp(`${theirs}|${mine}`) });
      if (await open.count()) return;
      await count(nav.getByRole('button', { name: `${theirs} Shared`, exact: true }), 1);
      await count(nav.getByRole('button', { name: mine, exact: true }), hasOwn(snapshot) ? 1 : 0);
    }
  },
};
