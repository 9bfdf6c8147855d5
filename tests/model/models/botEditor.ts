import { fromCallback } from 'xstate';
import { type AdminBot, botEditorMachine, draftProblems } from '../../../machines/botEditor';
import type { MachineModel } from '../harness';
import { expect } from '../harness';
import { category, done, failed, failedOn, lastCall, recording } from './shared';

const storedBot: AdminBot = {
  _id: 'b1',
  name: 'Oracle',
  description: 'Answers',
  platform: 'openai',
  provider: 'p1',
  model: 'double-1',
  systemPrompt: 'Be brief.',
  temperature: 0.5,
  vision: true,
  contextTokens: 16000,
  knowledge: ['kb1'],
  price: 0.25,
  categories: ['k1'],
  groups: ['g1'],
  active: true,
  position: 3,
};
// A new bot is on a server with a provider of its own (its models are listed before any is chosen);
// the stored one on a server without.
const editorData = (bot: AdminBot | null) => ({
  bot,
  providers: [{ _id: 'p1', name: 'Double' }],
  categories: [category('k1')],
  knowledgeBases: [{ _id: 'kb1', name: 'Handbook' }],
  groups: [{ _id: 'g1', name: 'Research' }],
  catalogue: [
    { _id: 'm1', name: 'Swift' },
    { _id: 'm2', name: 'Deep' },
  ],
  serverProvider: bot === null,
});

export const botEditorModel: MachineModel = {
  name: 'botEditor',
  provide: (world) =>
    botEditorMachine.provide({
      actors: {
        loadEditor: recording(world, 'loadEditor'),
        saveBot: recording(world, 'saveBot'),
        fetchModels: recording(world, 'fetchModels'),
        streamTry: fromCallback(({ input }) => {
          world.calls.push(`streamTry ${JSON.stringify(input)}`);
        }) as never,
      },
      actions: {
        announceSaved: ({ context }, { created }) => world.calls.push(`saved ${context.botId} ${created}`),
      },
    }),
  inputs: [{ botId: null }, { botId: 'b1' }],
  // One thing at a time: a call under way is answered before the admin does anything else.
  events: (snapshot) => {
    const { form, models, tryOut } = snapshot.value as Record<string, string>;
    const botId = snapshot.context.botId as string | null;
    if (form === 'loading' || form === 'failed')
      return [
        { type: 'RETRY' },
        done('loadEditor', editorData(botId ? storedBot : null)),
        failed('loadEditor'),
      ];
    if (tryOut === 'replying')
      return [
        { type: 'TRY_TOKEN', text: 'Hi' },
        { type: 'TRY_DONE' },
        { type: 'TRY_FAILED', message: 'The provider cannot be reached.' },
        { type: 'STOP_TRY' },
      ];
    if (models === 'loading') return [done('fetchModels', ['double-1', 'double-2']), failed('fetchModels')];
    if (form === 'saving')
      return [done('saveBot', { ...storedBot, name: 'Sage' }), failedOn('saveBot', 'name')];
    return [
      { type: 'CHANGE', values: { name: 'Sage' } },
      { type: 'CHANGE', values: { name: ' ', price: '-1', contextTokens: '100' } },
      { type: 'CHANGE', values: { platform: 'builtin' } },
      { type: 'CHANGE', values: { engine: 'librarian' } },
      { type: 'CHANGE', values: { platform: 'openai', provider: 'p1', model: 'double-1' } },
      { type: 'CHANGE', values: { provider: 'p2' } },
      // Catalogue models in order (Deep the default), members may tune replies; no model of its own.
      { type: 'CHANGE', values: { models: ['m2', 'm1'], userParameters: true, model: '' } },
      { type: 'SAVE' },
      { type: 'RETRY_MODELS' },
      { type: 'SEND_TRY', text: 'Hello' },
      { type: 'SEND_TRY', text: ' ' },
      { type: 'CLEAR_TRY' },
    ];
  },
  serialize: (snapshot) => {
    const { botId, draft, problems, models, modelsFor, modelsError, transcript, tryError } = snapshot.context;
    return JSON.stringify([
      snapshot.value,
      botId,
      draftProblems(draft).length > 0,
      draft.platform,
      draft.engine,
      draft.provider,
      draft.models.length,
      problems.length,
      models.length,
      modelsFor,
      !!modelsError,
      transcript.length > 0,
      !!tryError,
    ]);
  },
  check: (snapshot, world, event) => {
    const { context } = snapshot;
    const value = snapshot.value as Record<string, string>;
    // Nothing invalid is ever sent: a refused save names every problem next to its field.
    const save = lastCall(world, 'saveBot');
    if (value.form === 'saving') {
      expect(draftProblems(context.draft)).toEqual([]);
      expect(save).toBe(
        `saveBot ${JSON.stringify({ botId: context.botId, request: JSON.parse(save?.slice(8) ?? '{}').request })}`,
      );
      expect(JSON.parse(save?.slice(8) ?? '{}').request.name).toBe(context.draft.name.trim());
    }
    if (event?.type === 'SAVE' && value.form === 'editing' && draftProblems(context.draft).length)
      expect(context.problems).toEqual(draftProblems(context.draft));
    // What the server refuses is refused here first, with its words: a built-in bot other than the
    // Librarian reads no knowledge base, a context is 256 tokens or more, a built-in bot sees no images.
    if (value.form === 'saving') {
      const request = JSON.parse(save?.slice(8) ?? '{}').request;
      if (request.platform === 'builtin') {
        // Only a model bot offers catalogue models or lets members tune its replies.
        expect(request.models).toEqual([]);
        expect(request.userParameters).toBe(false);
        expect(request.vision).toBeUndefined();
        expect(request.contextTokens).toBeUndefined();
        if (request.knowledge.length) expect(request.engine).toBe('librarian');
      } else {
        expect(request.contextTokens).toBeGreaterThanOrEqual(256);
        expect(typeof request.vision).toBe('boolean');
        expect(request.models).toEqual(context.draft.models);
        expect(request.userParameters).toBe(context.draft.userParameters);
        // A bot on catalogue models needs no model of its own (sent as none).
        if (!context.draft.model.trim())
          expect([request.model, request.models.length > 0]).toEqual([null, true]);
      }
    }
    if (
      event?.type === 'SAVE' &&
      context.draft.platform === 'builtin' &&
      context.draft.knowledge.length &&
      context.draft.engine !== 'librarian'
    )
      expect(context.problems).toContainEqual({
        field: 'knowledge',
        message: 'Of the built-in bots only the Librarian reads knowledge bases.',
      });
    if (event?.type === 'xstate.done.actor.saveBot') {
      expect(value.form).toBe('saved');
      expect(context.botId).toBe('b1');
      expect(world.calls.filter((call) => call.startsWith('saved')).at(-1)).toMatch(
        /^saved b1 (true|false)$/,
      );
    }
    if (event?.type === 'xstate.error.actor.saveBot')
      expect(context.problems).toEqual([{ field: 'name', message: 'saveBot refused name' }]);
    // The model list follows the chosen provider, once per provider; none chosen, the server's own
    // when it has one ('').
    if (value.models === 'loading')
      expect(lastCall(world, 'fetchModels')).toBe(`fetchModels {"provider":"${context.draft.provider}"}`);
    if (
      (value.models === 'loaded' || value.models === 'failed') &&
      context.draft.platform === 'openai' &&
      (context.draft.provider || context.serverProvider)
    )
      expect(context.modelsFor).toBe(context.draft.provider);
    if (value.models === 'idle')
      expect(context.draft.platform === 'openai' && context.serverProvider).toBe(false);
    if (context.draft.platform === 'builtin')
      expect(value.models === 'loading' && event?.type === 'CHANGE').toBe(false);
    // Only a saved bot can be tried; the question goes with the conversation before it.
    if (value.tryOut === 'replying') {
      expect(context.botId).not.toBeNull();
      expect(context.transcript.at(-2)).toEqual({ role: 'user', text: 'Hello' });
      expect(lastCall(world, 'streamTry')).toBe(
        `streamTry ${JSON.stringify({ botId: context.botId, text: 'Hello', history: context.transcript.slice(0, -2) })}`,
      );
    }
    if (event?.type === 'TRY_TOKEN' && value.tryOut === 'replying')
      expect(context.transcript.at(-1)?.text).toMatch(/Hi$/);
    if (event?.type === 'TRY_FAILED') expect(context.tryError).toBe('The provider cannot be reached.');
    if (event?.type === 'CLEAR_TRY' && value.tryOut === 'idle') expect(context.transcript).toEqual([]);
  },
};
