import { assertEvent, assign, setup } from 'xstate';

/** What the panel shows of a passage a reply cites: its number, its file and page, its words. */
export interface CitedPassage {
  n: number;
  name: string;
  page?: number;
  snippet: string;
}

/** A passage, and the reply that cites it (a conversation has several). */
export interface ShownCitation {
  messageId: string;
  citation: CitedPassage;
}

export const citationsMachine = setup({
  types: {
    context: {} as { shown: ShownCitation | null },
    events: {} as { type: 'SHOW_CITATION'; messageId: string; citation: CitedPassage } | { type: 'CLOSE' },
  },
  actions: {
    showCitation: assign({
      shown: ({ event }) => {
        assertEvent(event, 'SHOW_CITATION');
        return { messageId: event.messageId, citation: event.citation };
      },
    }),
    forgetCitation: assign({ shown: null }),
  },
}).createMachine({
  id: 'citations',
  description: 'The passages a reply cites: its [n] markers and its sources open the passage in a panel.',
  context: { shown: null },
  initial: 'closed',
  states: {
    closed: {
      id: 'citations.closed',
      description: 'The conversation, with each cited reply marked [n] and its sources listed under it.',
      on: { SHOW_CITATION: { target: 'open', actions: 'showCitation' } },
    },
    open: {
      id: 'citations.open',
      description: "A panel shows the cited passage: the file's name, its page and the passage itself.",
      on: { CLOSE: { target: 'closed', actions: 'forgetCitation' } },
    },
  },
});
