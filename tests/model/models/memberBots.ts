import { type MemberBotRecord, memberBotsMachine } from '../../../machines/memberBots';
import type { MachineModel } from '../harness';
import { expect } from '../harness';
import { done, failed, failedOn, lastCall, recording, regionEvents } from './shared';

const bot = (id: string): MemberBotRecord => ({
  _id: id,
  name: `Bot ${id}`,
  description: 'Helps.',
  instructions: 'Answer like a pirate.',
  starters: ['Who is the parrot?'],
  model: 'm1',
  files: [{ _id: 'f1', name: 'notes.pdf', type: 'application/pdf', size: 2048 }],
  tools: [],
  visibility: 'private',
  groups: [],
  retired: false,
});
const mine = bot('b1');
const draft = {
  name: 'Parrot',
  description: '',
  instructions: 'Be brief.',
  starters: [],
  model: 'm1',
  files: ['f1'],
  tools: [],
  visibility: 'groups' as const,
  groups: ['g1'],
};
const choices = {
  models: [{ _id: 'm1', name: 'Fast' }],
  tools: [{ name: 'current_time', description: 'The time.' }],
  groups: [{ _id: 'g1', name: 'Team' }],
};

export const memberBotsModel: MachineModel = {
  name: 'memberBots',
  provide: (world) =>
    memberBotsMachine.provide({
      actors: {
        fetchMemberBots: recording(world, 'fetchMemberBots'),
        fetchBotChoices: recording(world, 'fetchBotChoices'),
        saveMemberBot: recording(world, 'saveMemberBot'),
        deleteMemberBot: recording(world, 'deleteMemberBot'),
      },
      actions: { announceBotsChanged: () => world.calls.push('announceBotsChanged') },
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
          done('fetchMemberBots', [mine]),
          failed('fetchMemberBots'),
        ],
      },
      dialog: {
        resting: ['closed'],
        events: [
          { type: 'NEW' },
          { type: 'EDIT', bot: mine },
          { type: 'ASK_DELETE', bot: mine },
          { type: 'SAVE', draft },
          { type: 'SAVE', draft: { ...draft, groups: [] } },
          { type: 'SAVE', draft: { ...draft, model: '' } },
          { type: 'DELETE' },
          { type: 'CANCEL' },
          done('fetchBotChoices', choices),
          failed('fetchBotChoices'),
          done('saveMemberBot', { ...mine, name: 'Parrot' }),
          failedOn('saveMemberBot', 'model'),
          done('deleteMemberBot'),
          failed('deleteMemberBot'),
        ],
      },
    },
    [{ type: 'RESET' }],
  ),
  serialize: (snapshot) => {
    const { items, error, target, choices: offered, problem } = snapshot.context;
    return JSON.stringify([
      snapshot.value,
      items.map((item: MemberBotRecord) => `${item._id}:${item.name}`),
      !!error,
      target?._id ?? null,
      offered.models.length,
      problem,
    ]);
  },
  check: (snapshot, world, event) => {
    const { context } = snapshot;
    if (snapshot.matches({ list: 'failed' })) expect(context.error).toBe('fetchMemberBots failed');
    if (event?.type === 'xstate.done.actor.fetchMemberBots') expect(context.items).toEqual([mine]);
    if (snapshot.matches({ dialog: 'loadingChoices' }))
      expect(lastCall(world, 'fetchBotChoices')).toBe('fetchBotChoices null');
    if (event?.type === 'xstate.done.actor.fetchBotChoices') expect(context.choices).toEqual(choices);
    if (event?.type === 'xstate.error.actor.fetchBotChoices') {
      expect(snapshot.matches({ dialog: 'editing' })).toBe(true);
      expect(context.problem).toEqual({ field: null, message: 'fetchBotChoices failed' });
    }
    // A draft without a name or a model, or shared with no group, is never sent.
    if (event?.type === 'SAVE') {
      const sent = (event as unknown as { draft: typeof draft }).draft;
      const complete = sent.name.trim() !== '' && sent.model !== '' && sent.groups.length > 0;
      expect(snapshot.matches({ dialog: 'saving' })).toBe(complete);
      if (complete)
        expect(lastCall(world, 'saveMemberBot')).toBe(
          `saveMemberBot ${JSON.stringify({ id: context.target?._id ?? null, draft: sent })}`,
        );
    }
    // Made, changed or deleted: in the list at once, and the catalogue fetched afresh.
    if (event?.type === 'xstate.done.actor.saveMemberBot') {
      const saved = event.output as MemberBotRecord;
      expect(context.items.filter((item: MemberBotRecord) => item._id === saved._id)).toEqual([saved]);
      expect(world.calls.at(-1)).toBe('announceBotsChanged');
    }
    if (event?.type === 'xstate.error.actor.saveMemberBot')
      expect(context.problem).toEqual({ field: 'model', message: 'saveMemberBot refused model' });
    if (snapshot.matches({ dialog: 'deleting' }))
      expect(lastCall(world, 'deleteMemberBot')).toBe('deleteMemberBot {"id":"b1"}');
    if (event?.type === 'xstate.done.actor.deleteMemberBot') {
      expect(context.items.map((item: MemberBotRecord) => item._id)).not.toContain('b1');
      expect(world.calls.at(-1)).toBe('announceBotsChanged');
    }
    if (event?.type === 'xstate.error.actor.deleteMemberBot') {
      expect(snapshot.matches({ dialog: 'confirmingDelete' })).toBe(true);
      expect(context.problem?.message).toBe('deleteMemberBot failed');
    }
    if (snapshot.matches({ dialog: 'closed' })) expect(context.target).toBeNull();
    if (event?.type === 'RESET') {
      expect(context.items).toEqual([]);
      expect(snapshot.matches({ list: 'idle', dialog: 'closed' })).toBe(true);
    }
  },
};
