import { citationsMachine } from '../../../machines/citations';
import type { MachineModel } from '../harness';
import { expect } from '../harness';

const handbook = {
  n: 1,
  fileId: 'f1',
  name: 'handbook.pdf',
  page: 3,
  snippet: 'Bicycles are parked in the yard.',
};
const notes = { n: 2, fileId: 'f2', name: 'notes.txt', snippet: 'The yard opens at seven.' };

export const citationsModel: MachineModel = {
  name: 'citations',
  provide: () => citationsMachine,
  inputs: [undefined],
  events: [
    { type: 'SHOW_CITATION', messageId: 'm1', citation: handbook },
    { type: 'SHOW_CITATION', messageId: 'm2', citation: notes },
    { type: 'CLOSE' },
  ],
  check: (snapshot, _world, event) => {
    const { shown } = snapshot.context;
    // The panel shows exactly the passage last asked for, and nothing once closed.
    if (snapshot.matches('closed')) expect(shown).toBeNull();
    else expect(shown).toEqual(event && { messageId: event.messageId, citation: event.citation });
  },
};
