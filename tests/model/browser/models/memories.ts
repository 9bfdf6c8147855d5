import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { type Memory, memoriesMachine } from '../../../../machines/memories';
import { call, signUp } from '../../../support/app';
import { done, failed } from '../../models';
import type { BrowserModel, PathWorld } from '../runner';
import { errorOf, expectDisabled } from './account';
import { networkProblem } from './adminList';
import { apiOf, openProfile, statesAlong, storeToken } from './session';

const project = { _id: 'p1', name: 'Thesis' };
/** The memory each path's member has from the start, in their project; and the one the path adds. */
const kept: Memory = { _id: 'm1', text: 'Likes tea', project: 'p1', createdAt: '', source: 'member' };
const added: Memory = { _id: 'm2', text: 'Lives in Lyon', project: null, createdAt: '', source: 'member' };
const edited = 'Likes green tea';

const section = ({ page }: PathWorld) =>
  page.getByRole('complementary').getByRole('region', { name: 'Memory', exact: true });
const editDialog = ({ page }: PathWorld) => page.getByRole('dialog', { name: 'Edit memory' });
const forgetDialog = ({ page }: PathWorld) => page.getByRole('alertdialog', { name: 'Forget all memories?' });
const idsOf = (snapshot: AnyMachineSnapshot) =>
  (snapshot.context.memories as Memory[]).map((memory) => memory._id);
/** A problem as the screen says it: a request the path failed, as the network failing. */
const shown = (message: string) => (message.endsWith(' failed') ? networkProblem : message);
/** The path's state before its step `index`. */
const stateBefore = (world: PathWorld, index: number) =>
  statesAlong(memoriesMachine, undefined, world)[index];

/**
 * The memory list of the Profile panel of a new member (each path its own) who kept one memory in a
 * project: one added (an empty one is refused at the field), the kept one edited in its dialog
 * (Escape keeps it) and deleted, and all forgotten after a question; each request held until the path
 * ends it.
 */
export const memoriesBrowserModel: BrowserModel = {
  name: 'memories',
  chainWalks: true,
  machine: memoriesMachine,
  events: [
    done('listMemories', { memories: [kept], projects: [project] }),
    failed('listMemories'),
    { type: 'RETRY' },
    // Editing first: a walk's way goes through it before adding, which leaves it behind.
    { type: 'EDIT', id: kept._id },
    { type: 'SAVE', text: '   ' },
    { type: 'SAVE', text: edited },
    done('editMemory', { ...kept, text: edited }),
    failed('editMemory'),
    { type: 'CANCEL' },
    { type: 'ADD', text: '   ', project: null },
    { type: 'ADD', text: added.text, project: null },
    done('addMemory', added),
    failed('addMemory'),
    { type: 'DELETE', id: kept._id },
    done('deleteMemory', kept._id),
    failed('deleteMemory'),
    { type: 'ASK_FORGET' },
    { type: 'FORGET' },
    done('forgetAll'),
    failed('forgetAll'),
  ],
  // What is listed (by id: an edit changes only a text) decides what a person can do next.
  serialize: (snapshot) => JSON.stringify([snapshot.value, idsOf(snapshot)]),
  // One line through the list: the kept memory is edited and one added; then the kept one is deleted,
  // then the added one forgotten with the rest. Each request's answer is then what its event says.
  possible: (snapshot, event) => {
    const ids = idsOf(snapshot).join();
    if (event.type === 'ADD' || event.type === 'EDIT') return ids === kept._id;
    if (event.type === 'DELETE') return ids === [added._id, kept._id].join();
    if (event.type === 'ASK_FORGET') return ids === added._id;
    return true;
  },
  requests: {
    listMemories: { method: 'GET', path: /^\/api\/v1\/memory$/ },
    addMemory: { method: 'POST', path: /^\/api\/v1\/memory$/ },
    editMemory: { method: 'PATCH', path: /^\/api\/v1\/memory\/[^/?]+$/ },
    deleteMemory: { method: 'DELETE', path: /^\/api\/v1\/memory\/[^/?]+$/ },
    forgetAll: { method: 'DELETE', path: /^\/api\/v1\/memory$/ },
  },
  start: async (world) => {
    const server = apiOf(world);
    const member = await signUp(server);
    const made = await call(server, '/api/v1/project', {
      token: member.token,
      body: { name: member.encrypt(project.name) },
    });
    const memory = await call(server, '/api/v1/memory', {
      token: member.token,
      body: { text: kept.text, project: made.body._id },
    });
    if (memory.status !== 201) throw new Error(`no memory: ${JSON.stringify(memory.body)}`);
    await storeToken(world, member.token);
    await world.page.goto(`${world.server.url}/list`);
    await openProfile(world);
    await section(world).waitFor();
  },
  perform: async (world, event, index) => {
    world.data.step = index + 1;
    const list = section(world);
    const item = (id: string) => {
      const text = (stateBefore(world, index).context.memories as Memory[]).find(
        (memory) => memory._id === id,
      )?.text;
      return list.getByRole('listitem').filter({ hasText: text });
    };
    switch (event.type) {
      case 'RETRY':
        await list.getByRole('button', { name: 'Retry' }).click();
        break;
      case 'ADD':
        await list.getByLabel('Add a memory').fill(event.text as string);
        await list.getByRole('button', { name: 'Add', exact: true }).click();
        break;
      case 'EDIT':
        await item(event.id as string)
          .getByRole('button', { name: 'Edit' })
          .click();
        break;
      case 'SAVE':
        await editDialog(world)
          .getByLabel('Memory')
          .fill(event.text as string);
        await editDialog(world).getByRole('button', { name: 'Save' }).click();
        break;
      case 'CANCEL':
        // Escape closes the Edit dialog; the question is answered with its Cancel.
        if (stateBefore(world, index).matches('edit')) await world.page.keyboard.press('Escape');
        else await forgetDialog(world).getByRole('button', { name: 'Cancel' }).click();
        break;
      case 'DELETE':
        await item(event.id as string)
          .getByRole('button', { name: 'Delete' })
          .click();
        break;
      case 'ASK_FORGET':
        await list.getByRole('button', { name: 'Forget all' }).click();
        break;
      case 'FORGET':
        await forgetDialog(world).getByRole('button', { name: 'Forget all' }).click();
        break;
    }
  },
  expectScreen: async (world, snapshot) => {
    const list = section(world);
    await list.waitFor({ timeout: 100 });
    const { memories, problem } = snapshot.context as {
      memories: Memory[];
      problem: { field: string | null; message: string } | null;
    };
    const step = (world.data.step as number | undefined) ?? 0;
    const before = world.events[step - 1];
    expect(await list.getByRole('status').filter({ hasText: 'Loading…' }).count()).toBe(
      snapshot.matches('loading') ? 1 : 0,
    );
    if (snapshot.matches('failed')) {
      const retry = list
        .getByRole('alert')
        .filter({ has: world.page.getByRole('button', { name: 'Retry' }) });
      expect(await retry.textContent()).toMatch(networkProblem);
    }
    const form = list.getByLabel('Add a memory');
    expect(await form.count()).toBe(snapshot.hasTag('listed') ? 1 : 0);
    if (!snapshot.hasTag('listed')) return;

    // Each memory with who saved it and its project, Edit and Delete (not while something is saved).
    const items = list.getByRole('listitem');
    expect(await items.count()).toBe(memories.length);
    expect(await list.getByText(/^No memories yet/).count()).toBe(memories.length ? 0 : 1);
    for (const memory of memories) {
      const shown = items.filter({ hasText: memory.text });
      expect(await shown.textContent()).toContain('Saved by you');
      if (memory.project) expect(await shown.textContent()).toContain(`Project: ${project.name}`);
      for (const name of ['Edit', 'Delete'])
        await expectDisabled(shown.getByRole('button', { name }), !snapshot.matches('idle'));
    }
    // A deleted memory's buttons are gone: focus is on the heading.
    if (before?.type === 'DELETE')
      expect(
        await list.getByRole('heading', { name: 'Memory' }).evaluate((h) => h === document.activeElement),
      ).toBe(true);

    // The form: what was typed until a memory is added, a problem with it at the field.
    const typing = world.events.slice(0, step);
    const lastAdd = typing.findLastIndex((event) => event.type === 'ADD');
    const lastAdded = typing.findLastIndex((event) => event.type === 'xstate.done.actor.addMemory');
    expect(await form.inputValue()).toBe(lastAdd > lastAdded ? (typing[lastAdd].text as string) : '');
    const dialogOpen = snapshot.matches('edit');
    const asking = snapshot.matches('asking') || snapshot.matches('forgetting');
    if (problem?.field === 'text' && !dialogOpen) expect(await errorOf(form)).toMatch(shown(problem.message));
    else expect(await form.getAttribute('aria-invalid')).toBeNull();
    expect(await list.getByLabel('Project (optional)').count()).toBe(1);
    const add = list.getByRole('button', { name: /^(Add|Adding…)$/ });
    await expectDisabled(add, snapshot.matches('adding'));
    expect(await add.textContent()).toBe(snapshot.matches('adding') ? 'Adding…' : 'Add');
    expect(await list.locator('form').getByRole('button', { name: 'Forget all' }).count()).toBe(
      memories.length ? 1 : 0,
    );
    // A problem of no field (the network): under the list, or in the question it is about.
    const listProblem = problem?.field === null && !dialogOpen && !asking;
    const alerts = list.getByRole('alert');
    expect(await alerts.count()).toBe(listProblem || (asking && problem) ? 1 : 0);
    if (problem?.field === null && !dialogOpen) expect(await alerts.textContent()).toMatch(networkProblem);

    // The Edit dialog: the text, a problem at it, Save off while it is saved.
    const edit = editDialog(world);
    expect(await edit.count()).toBe(dialogOpen ? 1 : 0);
    if (dialogOpen) {
      const area = edit.getByLabel('Memory');
      if (problem) expect(await errorOf(area)).toMatch(shown(problem.message));
      else expect(await area.getAttribute('aria-invalid')).toBeNull();
      await expectDisabled(
        edit.getByRole('button', { name: 'Save' }),
        snapshot.matches({ edit: 'savingEdit' }),
      );
      expect(await edit.evaluate((box) => box.contains(document.activeElement))).toBe(true);
    }
    // The dialog closed (Escape, or saved): focus back on the Edit that opened it; after the question's
    // Cancel, on Forget all.
    const prior = step ? stateBefore(world, step - 1) : null;
    const focused = (button: ReturnType<typeof list.getByRole>) =>
      button.evaluate((element) => element === document.activeElement);
    if (prior?.matches('edit') && !dialogOpen) {
      const text = memories.find((memory) => memory._id === kept._id)?.text ?? '';
      expect(await focused(items.filter({ hasText: text }).getByRole('button', { name: 'Edit' }))).toBe(true);
    }
    if (prior?.matches('asking') && before?.type === 'CANCEL')
      expect(await focused(list.locator('form').getByRole('button', { name: 'Forget all' }))).toBe(true);

    // Forget all asks first; a failure is said in the question.
    const question = forgetDialog(world);
    expect(await question.count()).toBe(asking ? 1 : 0);
    if (asking)
      await expectDisabled(
        question.getByRole('button', { name: 'Forget all' }),
        snapshot.matches('forgetting'),
      );
  },
};
