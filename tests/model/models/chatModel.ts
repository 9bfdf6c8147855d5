import { chatModelMachine, parametersOf, parametersProblems } from '../../../machines/chatModel';
import type { MachineModel } from '../harness';
import { expect } from '../harness';
import { done, failed, failedOn, lastCall, recording, regionEvents } from './shared';

const prices = [
  { _id: 'm1', name: 'Swift', price: 0.01 },
  { _id: 'm2', name: 'Deep', price: 0.2, inputPrice: 1, outputPrice: 4 },
];
const saved = (model: string, parameters = {}) => ({ model, parameters });

const changes = regionEvents({
  choice: {
    resting: ['idle'],
    events: [
      { type: 'CHOOSE', model: 'm2' },
      { type: 'CHOOSE', model: 'm1' },
      done('saveChoice', saved('m2', { temperature: 0.5 })),
      failed('saveChoice'),
    ],
  },
  settings: {
    resting: ['closed'],
    events: [
      { type: 'OPEN_SETTINGS' },
      { type: 'CHANGE', values: { temperature: '0,7', maxTokens: '300' } },
      { type: 'CHANGE', values: { temperature: '3', maxTokens: '1.5' } },
      { type: 'SAVE' },
      { type: 'CANCEL' },
      done('saveParameters', saved('m1', { temperature: 0.7, maxTokens: 300 })),
      // The server names the length it refuses as `parameters.maxTokens`.
      failedOn('saveParameters', 'parameters.maxTokens'),
    ],
  },
});

export const chatModelModel: MachineModel = {
  name: 'chatModel',
  provide: (world) =>
    chatModelMachine.provide({
      actors: {
        fetchPrices: recording(world, 'fetchPrices'),
        saveChoice: recording(world, 'saveChoice'),
        saveParameters: recording(world, 'saveParameters'),
      },
    }),
  // A conversation, and a bot's new chat (nothing to set until it exists).
  inputs: [
    { topicId: 't1', model: 'm1', parameters: { maxTokens: 100 } },
    { topicId: null, model: null, parameters: {} },
  ],
  // The prices load first (a picker is shown), then one thing at a time is chosen or set.
  events: (snapshot) => {
    const { prices: pricesState } = snapshot.value as Record<string, string>;
    if (pricesState === 'idle' && snapshot.context.topicId) return [{ type: 'LOAD_PRICES' }];
    if (pricesState === 'loading') return [done('fetchPrices', prices), failed('fetchPrices')];
    return pricesState === 'failed' ? [] : changes(snapshot);
  },
  serialize: (snapshot) => {
    const { topicId, model, parameters, prices: known, draft, problems, error } = snapshot.context;
    return JSON.stringify([
      snapshot.value,
      topicId,
      model,
      parameters.temperature,
      known.length,
      parametersProblems(draft).length,
      problems.length,
      !!error,
    ]);
  },
  check: (snapshot, world, event) => {
    const { context } = snapshot;
    const value = snapshot.value as Record<string, string>;
    // The form's rules: a temperature from 0 to 2 (a decimal comma taken), a whole length of 1 or more.
    expect(parametersProblems({ temperature: '0,7', maxTokens: '300' })).toEqual([]);
    expect(parametersOf({ temperature: '0,7', maxTokens: '300' })).toEqual({
      temperature: 0.7,
      maxTokens: 300,
    });
    expect(parametersOf({ temperature: ' ', maxTokens: '' })).toEqual({});
    expect(
      parametersProblems({ temperature: '3', maxTokens: '1.5' }).map((problem) => problem.field),
    ).toEqual(['temperature', 'maxTokens']);
    // Prices are asked for once, when a picker is shown.
    if (value.prices === 'loading') expect(lastCall(world, 'fetchPrices')).toBe('fetchPrices null');
    if (value.prices === 'loaded') expect(context.prices).toEqual(prices);
    if (value.prices !== 'loaded') expect(context.prices).toEqual([]);
    // A choice is saved on the conversation (never before one exists), shown picked meanwhile.
    if (value.choice === 'choosing') {
      expect(context.topicId).not.toBeNull();
      expect(context.picked).not.toBe(context.model);
      expect(lastCall(world, 'saveChoice')).toBe(
        `saveChoice ${JSON.stringify({ topicId: context.topicId, model: context.picked })}`,
      );
    } else expect(context.picked).toBeNull();
    if (event?.type === 'xstate.done.actor.saveChoice') {
      expect([context.model, context.parameters, context.error]).toEqual(['m2', { temperature: 0.5 }, null]);
    }
    if (event?.type === 'xstate.error.actor.saveChoice') expect(context.error).toBe('saveChoice failed');
    if (event?.type === 'CHOOSE' && value.choice === 'choosing') expect(context.error).toBeNull();
    // The settings open with the conversation's, send only a valid form, and show the server's refusal
    // at its field (`parameters.maxTokens` is the length's), or of the whole form.
    if (event?.type === 'OPEN_SETTINGS' && value.settings === 'open') {
      expect(context.topicId).not.toBeNull();
      expect(context.draft).toEqual({
        temperature:
          context.parameters.temperature === undefined ? '' : String(context.parameters.temperature),
        maxTokens: context.parameters.maxTokens === undefined ? '' : String(context.parameters.maxTokens),
      });
      expect(context.problems).toEqual([]);
    }
    if (value.settings === 'saving') {
      expect(parametersProblems(context.draft)).toEqual([]);
      expect(lastCall(world, 'saveParameters')).toBe(
        `saveParameters ${JSON.stringify({ topicId: context.topicId, parameters: parametersOf(context.draft) })}`,
      );
    }
    if (event?.type === 'SAVE' && value.settings === 'open')
      expect(context.problems).toEqual(parametersProblems(context.draft));
    if (event?.type === 'xstate.done.actor.saveParameters')
      expect([context.model, context.parameters]).toEqual(['m1', { temperature: 0.7, maxTokens: 300 }]);
    if (event?.type === 'xstate.error.actor.saveParameters') {
      const field = (event.error as { field: string }).field;
      expect(context.problems).toEqual([
        {
          field: 'maxTokens',
          message: `saveParameters refused ${field}`,
        },
      ]);
    }
    if (event?.type === 'CHANGE')
      expect(context.problems.some((problem: { field: string | null }) => problem.field !== null)).toBe(
        false,
      );
  },
};
