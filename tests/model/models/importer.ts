import { type EventObject, fromCallback } from 'xstate';
import { importerMachine } from '../../../machines/importer';
import type { MachineModel } from '../harness';
import { expect } from '../harness';

const exported = new Blob(['[]'], { type: 'application/json' });
const result = { imported: 12, skipped: 3, topics: ['t1'] };

export const importerModel: MachineModel = {
  name: 'importer',
  provide: (world) =>
    importerMachine.provide({
      actors: {
        importFile: fromCallback<EventObject, { name: string; project: string | null }>(({ input }) => {
          world.calls.push(`import ${input.name} ${input.project}`);
        }) as never,
        listProjects: fromCallback(() => {
          world.calls.push('projects');
        }) as never,
      },
      actions: { announceImported: () => world.calls.push('announced') },
    }),
  inputs: [undefined],
  events: [
    { type: 'PROJECTS', projects: [{ _id: 'p1', name: 'Thesis' }] },
    { type: 'IMPORT', file: exported, name: 'conversations.json', project: 'p1' },
    { type: 'IMPORT', file: null, name: '', project: null },
    { type: 'PROGRESS', loaded: 1, total: 4 },
    { type: 'PROGRESS', loaded: 4, total: 4 },
    { type: 'IMPORTED', result },
    { type: 'IMPORT_FAILED', message: 'This is not a ChatGPT or Claude export.' },
  ],
  serialize: (snapshot) => {
    const { progress, result: shown, error, projects } = snapshot.context;
    return JSON.stringify([snapshot.value, progress, !!shown, error, projects.length]);
  },
  check: (snapshot, world, event) => {
    const { progress, result: shown, error, projects, request } = snapshot.context;
    // The projects are asked for once, as the section opens.
    expect(world.calls.filter((call) => call === 'projects')).toHaveLength(1);
    if (event?.type === 'PROJECTS') expect(projects).toEqual([{ _id: 'p1', name: 'Thesis' }]);
    const imports = world.calls.filter((call) => call.startsWith('import '));
    const sent = world.sent.filter((step) => step.type === 'IMPORT' && step.file !== null);
    // Each import with a file uploads it once, into the project picked; none without a file.
    if (snapshot.matches('sending')) {
      expect(imports.at(-1)).toBe('import conversations.json p1');
      expect(request?.name).toBe('conversations.json');
    } else expect(request).toBeNull();
    expect(imports.length).toBeLessThanOrEqual(sent.length);
    if (event?.type === 'IMPORT' && event.file === null) {
      expect(snapshot.matches('idle')).toBe(true);
      expect(error).toBe('Choose a file to import.');
    }
    if (event?.type === 'PROGRESS' && snapshot.matches('sending'))
      expect(progress).toBe((event.loaded as number) / (event.total as number));
    // Every byte sent: the server is importing.
    if (snapshot.matches({ sending: 'importing' })) expect(progress).toBe(1);
    if (event?.type === 'IMPORTED' && world.sent.at(-2)?.type !== 'IMPORTED') {
      expect(shown).toEqual(result);
      expect(world.calls.at(-1)).toBe('announced');
    }
    if (event?.type === 'IMPORT_FAILED' && snapshot.matches('idle') && shown === null)
      expect(error).toBe('This is not a ChatGPT or Claude export.');
  },
};
