import type { Prompt } from '../../../machines/promptText';
import { matchesOf, slashMenuMachine } from '../../../machines/slashMenu';
import type { MachineModel } from '../harness';
import { expect } from '../harness';
import { done, failed, lastCall, recording } from './shared';

const summary: Prompt = {
  _id: 'p1',
  command: 'sum',
  title: 'Summary',
  text: 'Sum up.',
  visibility: 'private',
};
const translate: Prompt = {
  _id: 'p2',
  command: 'tr',
  title: 'Translate',
  text: 'Translate {{text}} into {{ language }}.',
  visibility: 'organization',
};

export const slashMenuModel: MachineModel = {
  name: 'slashMenu',
  provide: (world) => slashMenuMachine.provide({ actors: { listPrompts: recording(world, 'listPrompts') } }),
  inputs: [undefined],
  events: [
    { type: 'TYPE', text: '/' },
    { type: 'TYPE', text: '/t' },
    { type: 'TYPE', text: '/zz' },
    { type: 'TYPE', text: 'hello' },
    done('listPrompts', [summary, translate]),
    failed('listPrompts'),
    { type: 'RETRY' },
    { type: 'DOWN' },
    { type: 'UP' },
    { type: 'PICK' },
    { type: 'CHOOSE', id: 'p1' },
    { type: 'CHOOSE', id: 'p2' },
    { type: 'CLOSE' },
    { type: 'FILL', values: { text: 'hallo', language: ' ' } },
    { type: 'FILL', values: { text: 'hallo', language: 'English' } },
    { type: 'CANCEL' },
  ],
  serialize: (snapshot) => {
    const { query, highlighted, picked, missing, inserted, error, prompts } = snapshot.context;
    return JSON.stringify([
      snapshot.value,
      query,
      highlighted,
      picked?._id ?? null,
      missing,
      inserted.text,
      !!error,
      prompts.length,
    ]);
  },
  check: (snapshot, world, event) => {
    const { query, highlighted, picked, missing, inserted, error } = snapshot.context;
    const matches = matchesOf(snapshot.context);
    if (snapshot.matches('loading')) expect(lastCall(world, 'listPrompts')).toBe('listPrompts null');
    if (snapshot.matches('failed')) expect(error).toBe('listPrompts failed');
    if (snapshot.hasTag('shown')) expect(['', 't', 'zz']).toContain(query);
    // Only what starts with / and stays one word opens it; anything else closes it.
    if (event?.type === 'TYPE' && event.text === 'hello') expect(snapshot.matches('closed')).toBe(true);
    if (query === 't' && snapshot.matches('open')) expect(matches.map((p: Prompt) => p._id)).toEqual(['p2']);
    if (query === 'zz' && snapshot.matches('open')) expect(matches).toEqual([]);
    expect(highlighted).toBeGreaterThanOrEqual(0);
    if (matches.length) expect(highlighted).toBeLessThan(matches.length);
    if (event?.type === 'DOWN' && snapshot.matches('open') && matches.length === 2 && query === '')
      expect(highlighted).toBeLessThan(2);
    if (snapshot.matches('asking')) expect(picked).toEqual(translate);
    else expect(picked).toBeNull();
    // A value left empty (spaces are empty) is named; nothing lands.
    if (event?.type === 'FILL' && snapshot.matches('asking')) expect(missing).toEqual(['language']);
    if (event?.type === 'FILL' && snapshot.matches('dismissed'))
      expect(inserted.text).toBe('Translate hallo into English.');
    if ((event?.type === 'PICK' || event?.type === 'CHOOSE') && snapshot.matches('dismissed'))
      expect(inserted.text).toBe('Sum up.');
    if (event?.type === 'CLOSE') expect(snapshot.matches('dismissed')).toBe(true);
  },
};
