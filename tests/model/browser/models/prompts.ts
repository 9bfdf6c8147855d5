import { expect } from 'vitest';
import { type PromptDraft, promptsMachine } from '../../../../machines/prompts';
import type { Prompt } from '../../../../machines/promptText';
import { signUp } from '../../../support/app';
import { done, failed } from '../../models';
import type { BrowserModel, PathWorld } from '../runner';
import { errorOf } from './account';
import { networkProblem } from './adminList';
import { apiOf, openProfile, storeToken } from './session';

const draft: PromptDraft = {
  command: '/Sum',
  title: 'Summary',
  text: 'Sum up {{text}}',
  visibility: 'private',
};
const added: Prompt = {
  _id: 'p1',
  command: 'sum',
  title: 'Summary',
  text: 'Sum up {{text}}',
  visibility: 'private',
};

const section = ({ page }: PathWorld) =>
  page.getByRole('complementary').getByRole('region', { name: 'Prompts' });
const dialog = ({ page }: PathWorld) => page.getByRole('dialog', { name: /^(New prompt|Edit prompt)$/ });

/**
 * Profile → Prompts of a new member (each walk its own): the list, the New and Edit dialog with a
 * refused command, Delete; each request held until the path ends it.
 */
export const promptsBrowserModel: BrowserModel = {
  name: 'prompts',
  chainWalks: true,
  machine: promptsMachine,
  events: [
    done('listPrompts', []),
    failed('listPrompts'),
    { type: 'RETRY' },
    { type: 'NEW' },
    { type: 'SAVE', draft },
    { type: 'SAVE', draft: { ...draft, command: 'two words' } },
    { type: 'CANCEL' },
    done('addPrompt', added),
    failed('addPrompt'),
    { type: 'EDIT', id: 'p1' },
    done('editPrompt', added),
    failed('editPrompt'),
    { type: 'DELETE', id: 'p1' },
    done('deletePrompt', 'p1'),
    failed('deletePrompt'),
  ],
  serialize: (snapshot) => {
    const { prompts, editing, problem } = snapshot.context;
    // A problem of the whole form (the network) has no field: told apart from none.
    return JSON.stringify([
      snapshot.value,
      prompts.length,
      editing?._id ?? null,
      problem ? (problem.field ?? 'form') : null,
    ]);
  },
  // One prompt at a time, made from an empty list; a wrong command once, in a new prompt's dialog.
  possible: (snapshot, event) => {
    const { editing, problem, prompts } = snapshot.context as {
      editing: Prompt | null;
      problem: unknown;
      prompts: Prompt[];
    };
    if (event.type === 'NEW') return prompts.length === 0;
    if (event.type === 'SAVE' && (event.draft as PromptDraft).command === 'two words')
      return !editing && !problem;
    return true;
  },
  requests: {
    listPrompts: { method: 'GET', path: /^\/api\/v1\/prompt$/ },
    addPrompt: { method: 'POST', path: /^\/api\/v1\/prompt$/ },
    editPrompt: { method: 'PATCH', path: /^\/api\/v1\/prompt\/[^/]+$/ },
    deletePrompt: { method: 'DELETE', path: /^\/api\/v1\/prompt\/[^/]+$/ },
  },
  start: async (world) => {
    const member = await signUp(apiOf(world));
    await storeToken(world, member.token);
    await world.page.goto(`${world.server.url}/list`);
    await openProfile(world);
    await section(world).waitFor();
  },
  perform: async (world, event) => {
    const list = section(world);
    switch (event.type) {
      case 'RETRY':
        await list.getByRole('button', { name: 'Retry' }).click();
        break;
      case 'NEW':
        await list.getByRole('button', { name: 'Add a prompt' }).click();
        break;
      case 'EDIT':
      case 'DELETE':
        await list.getByRole('button', { name: event.type === 'EDIT' ? 'Edit' : 'Delete' }).click();
        break;
      case 'SAVE': {
        const { command, title, text } = event.draft as PromptDraft;
        const form = dialog(world);
        await form.getByLabel('Command', { exact: true }).fill(command);
        await form.getByLabel('Title', { exact: true }).fill(title);
        await form.getByLabel('Text', { exact: true }).fill(text);
        await form.getByRole('button', { name: 'Save' }).click();
        break;
      }
      case 'CANCEL':
        await dialog(world).getByRole('button', { name: 'Cancel' }).click();
        break;
    }
  },
  expectScreen: async (world, snapshot) => {
    const list = section(world);
    await list.waitFor({ timeout: 100 });
    const { prompts, problem } = snapshot.context as {
      prompts: Prompt[];
      problem: { field: string | null; message: string } | null;
    };
    expect(await list.getByRole('status').filter({ hasText: 'Loading…' }).count()).toBe(
      snapshot.matches('loading') ? 1 : 0,
    );
    const retry = list.getByRole('alert').filter({ has: world.page.getByRole('button', { name: 'Retry' }) });
    expect(await retry.count()).toBe(snapshot.matches('failed') ? 1 : 0);
    if (snapshot.matches('failed')) expect(await retry.textContent()).toMatch(networkProblem);
    if (snapshot.hasTag('listed')) {
      expect(await list.getByRole('listitem').count()).toBe(prompts.length);
      for (const prompt of prompts) expect(await list.getByText(`/${prompt.command}`).count()).toBe(1);
      expect(await list.getByText('No prompts yet.').count()).toBe(prompts.length ? 0 : 1);
      // A delete that failed: the prompt stays, and the list says why.
      if (!snapshot.matches('dialog')) {
        const failure = list.getByRole('alert');
        expect(await failure.count()).toBe(problem ? 1 : 0);
        if (problem) expect(await failure.textContent()).toMatch(networkProblem);
      }
    }
    const form = dialog(world);
    expect(await form.count()).toBe(snapshot.matches('dialog') ? 1 : 0);
    if (snapshot.matches('dialog')) {
      const command = form.getByLabel('Command', { exact: true });
      if (problem?.field === 'command') expect(await errorOf(command)).toContain(problem.message);
      else expect(await command.getAttribute('aria-invalid')).toBeNull();
      // A save that did not reach the server says so in the dialog, which keeps what was typed.
      const refused = form.getByRole('alert');
      expect(await refused.count()).toBe(problem && problem.field === null ? 1 : 0);
      if (problem && problem.field === null) expect(await refused.textContent()).toMatch(networkProblem);
      const saving = snapshot.matches({ dialog: 'adding' }) || snapshot.matches({ dialog: 'changing' });
      expect(await form.getByRole('button', { name: saving ? 'Saving…' : 'Save' }).count()).toBe(1);
      // A member is no admin: no choice of the whole organization.
      expect(await form.getByLabel('For the whole organization').count()).toBe(0);
    }
  },
};
