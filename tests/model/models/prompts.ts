import { type PromptDraft, promptsMachine } from '../../../machines/prompts';
import type { Prompt } from '../../../machines/promptText';
import type { MachineModel } from '../harness';
import { expect } from '../harness';
import { done, failed, failedOn, lastCall, recording } from './shared';

const mine: Prompt = {
  _id: 'p1',
  command: 'tr',
  title: 'Translate',
  text: 'Into {{language}}',
  visibility: 'private',
};
const shared: Prompt = {
  _id: 'p2',
  command: 'standup',
  title: 'Standup',
  text: 'Yesterday',
  visibility: 'organization',
};
const draft: PromptDraft = {
  command: ' /Sum ',
  title: ' Summary ',
  text: ' Sum up {{text}} ',
  visibility: 'private',
};
const added: Prompt = {
  _id: 'p3',
  command: 'sum',
  title: 'Summary',
  text: 'Sum up {{text}}',
  visibility: 'private',
};

export const promptsModel: MachineModel = {
  name: 'prompts',
  provide: (world) =>
    promptsMachine.provide({
      actors: {
        listPrompts: recording(world, 'listPrompts'),
        addPrompt: recording(world, 'addPrompt'),
        editPrompt: recording(world, 'editPrompt'),
        deletePrompt: recording(world, 'deletePrompt'),
      },
    }),
  inputs: [undefined],
  events: [
    done('listPrompts', [shared, mine]),
    failed('listPrompts'),
    { type: 'RETRY' },
    { type: 'NEW' },
    { type: 'EDIT', id: 'p1' },
    { type: 'EDIT', id: 'nobody' },
    { type: 'SAVE', draft },
    { type: 'SAVE', draft: { ...draft, command: 'two words' } },
    { type: 'CANCEL' },
    done('addPrompt', added),
    failedOn('addPrompt', 'command'),
    done('editPrompt', { ...mine, command: 'sum', title: 'Summary', text: 'Sum up {{text}}' }),
    failed('editPrompt'),
    { type: 'DELETE', id: 'p1' },
    done('deletePrompt', 'p1'),
    failed('deletePrompt'),
  ],
  serialize: (snapshot) => {
    const { prompts, editing, problem } = snapshot.context;
    return JSON.stringify([
      snapshot.value,
      prompts.map((prompt: Prompt) => `${prompt._id}:${prompt.command}`),
      editing?._id ?? null,
      problem?.field ?? problem?.message ?? null,
    ]);
  },
  check: (snapshot, world, event) => {
    const { prompts, editing, problem } = snapshot.context;
    if (snapshot.matches('loading')) expect(lastCall(world, 'listPrompts')).toBe('listPrompts null');
    if (snapshot.matches('failed')) expect(problem?.message).toBe('listPrompts failed');
    // The draft goes cleaned: no `/`, lower case, trimmed; a bad command never goes, and says why.
    const cleaned = '{"command":"sum","title":"Summary","text":"Sum up {{text}}","visibility":"private"}';
    if (snapshot.matches({ dialog: 'adding' }))
      expect(lastCall(world, 'addPrompt')).toBe(`addPrompt ${cleaned}`);
    if (snapshot.matches({ dialog: 'changing' }))
      expect(lastCall(world, 'editPrompt')).toBe(`editPrompt {"id":"p1","draft":${cleaned}}`);
    if (event?.type === 'SAVE' && (event.draft as PromptDraft).command === 'two words')
      expect(problem).toEqual({
        field: 'command',
        message: 'A command starts with a letter or a digit and has only letters, digits, - and _.',
      });
    if (event?.type === 'EDIT' && event.id === 'nobody') expect(snapshot.matches('dialog')).toBe(false);
    if (snapshot.matches('dialog') && event?.type === 'EDIT') expect(editing?._id).toBe(mine._id);
    if (event?.type === 'NEW') expect(editing).toBeNull();
    if (!snapshot.matches('dialog')) expect(editing).toBeNull();
    if (event?.type === 'xstate.done.actor.addPrompt')
      expect(prompts.map((p: Prompt) => p._id)).toContain('p3');
    // Listed by command, whatever was saved last.
    if (event?.type?.startsWith('xstate.done.actor'))
      expect(prompts.map((p: Prompt) => p.command)).toEqual(
        [...prompts.map((p: Prompt) => p.command)].sort(),
      );
    if (event?.type === 'xstate.error.actor.addPrompt') {
      expect(snapshot.matches({ dialog: 'editing' })).toBe(true);
      expect(problem?.field).toBe('command');
    }
    if (event?.type === 'xstate.error.actor.editPrompt') {
      expect(snapshot.matches({ dialog: 'editing' })).toBe(true);
      expect(problem).toEqual({ field: null, message: 'editPrompt failed' });
    }
    if (event?.type === 'xstate.done.actor.editPrompt')
      expect(prompts.find((p: Prompt) => p._id === 'p1')?.command).toBe('sum');
    if (snapshot.matches('deleting'))
      expect(lastCall(world, 'deletePrompt')).toBe('deletePrompt {"id":"p1"}');
    if (event?.type === 'xstate.done.actor.deletePrompt')
      expect(prompts.map((p: Prompt) => p._id)).not.toContain('p1');
    if (event?.type === 'xstate.error.actor.deletePrompt')
      expect(problem?.message).toBe('deletePrompt failed');
  },
};
