import { type ProjectRecord, projectsMachine } from '../../../machines/projects';
import type { MachineModel } from '../harness';
import { expect } from '../harness';
import { done, failed, failedOn, lastCall, recording, regionEvents } from './shared';

const project = (id: string, shared = false): ProjectRecord => ({
  _id: id,
  name: `Project ${id}`,
  instructions: 'Answer in French.',
  bot: null,
  files: [{ _id: 'f1', name: 'notes.pdf', type: 'application/pdf', size: 2048 }],
  knowledgeBases: [],
  groups: [],
  owner: { _id: shared ? 'u2' : 'u1', name: shared ? 'Grace' : 'Ada' },
  shared,
});
const own = project('p1');
const theirs = project('p2', true);
const draft = {
  name: 'Trip',
  instructions: 'Be brief.',
  bot: null,
  files: ['f1'],
  knowledgeBases: [],
  groups: ['g1'],
};
const choices = { groups: [{ _id: 'g1', name: 'Team' }], knowledgeBases: [] };

export const projectsModel: MachineModel = {
  name: 'projects',
  provide: (world) =>
    projectsMachine.provide({
      actors: {
        fetchProjects: recording(world, 'fetchProjects'),
        fetchChoices: recording(world, 'fetchChoices'),
        saveProject: recording(world, 'saveProject'),
        deleteProject: recording(world, 'deleteProject'),
      },
      actions: {
        showProject: (_, { project: shown }) => world.calls.push(`showProject ${shown._id}`),
        leaveProject: (_, { id }) => world.calls.push(`leaveProject ${id}`),
      },
    }),
  inputs: [undefined],
  // One region at a time leaves its resting states; RESET, which concerns both, is offered everywhere.
  events: regionEvents(
    {
      list: {
        resting: ['idle', 'loaded'],
        events: [
          { type: 'LOAD' },
          { type: 'RETRY' },
          done('fetchProjects', [own, theirs]),
          failed('fetchProjects'),
        ],
      },
      dialog: {
        resting: ['closed'],
        events: [
          { type: 'NEW' },
          { type: 'EDIT', project: own },
          { type: 'EDIT', project: theirs },
          { type: 'ASK_DELETE', project: own },
          { type: 'SAVE', draft },
          { type: 'SAVE', draft: { ...draft, name: ' ' } },
          { type: 'SAVE', draft: { ...draft, instructions: 'x'.repeat(8001) } },
          { type: 'DELETE', conversations: 'keep' },
          { type: 'CANCEL' },
          done('fetchChoices', choices),
          failed('fetchChoices'),
          done('saveProject', { ...own, name: 'Trip' }),
          done('saveProject', project('p3')),
          failedOn('saveProject', 'name'),
          done('deleteProject'),
          failed('deleteProject'),
        ],
      },
    },
    [{ type: 'RESET' }],
  ),
  serialize: (snapshot) => {
    const { items, error, target, choices: offered, problem } = snapshot.context;
    return JSON.stringify([
      snapshot.value,
      items.map((item: ProjectRecord) => `${item._id}:${item.name}`),
      !!error,
      target?._id ?? null,
      offered.groups.length,
      problem,
    ]);
  },
  check: (snapshot, world, event) => {
    const { context } = snapshot;
    if (snapshot.matches({ list: 'failed' })) expect(context.error).toBe('fetchProjects failed');
    if (event?.type === 'xstate.done.actor.fetchProjects') expect(context.items).toEqual([own, theirs]);
    // A shared project opens read-only, the member's own in the form, after the choices it offers.
    if (event?.type === 'EDIT')
      expect(snapshot.matches({ dialog: context.target?.shared ? 'reading' : 'loadingChoices' })).toBe(true);
    if (snapshot.matches({ dialog: 'loadingChoices' }))
      expect(lastCall(world, 'fetchChoices')).toBe('fetchChoices null');
    if (event?.type === 'xstate.done.actor.fetchChoices') expect(context.choices).toEqual(choices);
    if (event?.type === 'xstate.error.actor.fetchChoices') {
      expect(snapshot.matches({ dialog: 'editing' })).toBe(true);
      expect(context.problem).toEqual({ field: null, message: 'fetchChoices failed' });
    }
    // A draft without a name or with too long instructions is never sent.
    if (event?.type === 'SAVE') {
      const sent = (event as unknown as { draft: typeof draft }).draft;
      const complete = sent.name.trim() !== '' && sent.instructions.length <= 8000;
      expect(snapshot.matches({ dialog: 'saving' })).toBe(complete);
      if (complete)
        expect(lastCall(world, 'saveProject')).toBe(
          `saveProject ${JSON.stringify({ id: context.target?._id ?? null, draft: sent })}`,
        );
    }
    if (event?.type === 'xstate.done.actor.saveProject') {
      const saved = event.output as ProjectRecord;
      expect(context.items.filter((item: ProjectRecord) => item._id === saved._id)).toEqual([saved]);
      expect(world.calls.at(-1)).toBe(`showProject ${saved._id}`);
    }
    if (event?.type === 'xstate.error.actor.saveProject')
      expect(context.problem).toEqual({ field: 'name', message: 'saveProject refused name' });
    if (snapshot.matches({ dialog: 'deleting' }))
      expect(lastCall(world, 'deleteProject')).toBe('deleteProject {"id":"p1","conversations":"keep"}');
    if (event?.type === 'xstate.done.actor.deleteProject') {
      expect(context.items.map((item: ProjectRecord) => item._id)).not.toContain('p1');
      expect(world.calls.at(-1)).toBe('leaveProject p1');
    }
    if (event?.type === 'xstate.error.actor.deleteProject') {
      expect(snapshot.matches({ dialog: 'confirmingDelete' })).toBe(true);
      expect(context.problem?.message).toBe('deleteProject failed');
    }
    if (snapshot.matches({ dialog: 'closed' })) expect(context.target).toBeNull();
    if (event?.type === 'RESET') {
      expect(context.items).toEqual([]);
      expect(snapshot.matches({ list: 'idle', dialog: 'closed' })).toBe(true);
    }
  },
};
