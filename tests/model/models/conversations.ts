import { conversationsMachine } from '../../../machines/conversations';
import type { MachineModel, ModelEvent } from '../harness';
import { expect } from '../harness';
import { done, failed, recording, stamp } from './shared';

const conversation = (id: string, preview: string | null = 'Hello') => ({
  _id: id,
  title: `Conversation ${id}`,
  bot: { _id: 'b1', name: 'ELIZA' },
  preview,
  streaming: false,
  createdAt: stamp,
  updatedAt: stamp,
});
const firstPage = {
  items: [conversation('c1'), conversation('c2'), conversation('c0', null)],
  next: 'cursor-2',
};
const lastPage = { items: [conversation('c2'), conversation('c3')], next: null };
const afterSearchDelay = 'xstate.after.searchDelay.conversations.list.debouncing';

const c1 = { _id: 'c1', title: 'Conversation c1' };
const conversationsRegions = {
  list: {
    resting: ['idle', 'loaded'],
    events: [
      { type: 'LOAD' },
      { type: 'REFRESH' },
      { type: 'LOAD_MORE' },
      { type: 'RETRY' },
      { type: 'SEARCH', query: 'elizA' },
      { type: 'SEARCH', query: ' ' },
      { type: afterSearchDelay },
      done('fetchPage', firstPage),
      failed('fetchPage'),
      done('fetchMore', lastPage),
      failed('fetchMore'),
    ],
  },
  edit: {
    resting: ['idle'],
    events: [
      { type: 'START_RENAME', conversation: c1 },
      { type: 'ASK_DELETE', conversation: c1 },
      { type: 'RENAME', title: '  Therapy  ' },
      { type: 'RENAME', title: ' ' },
      { type: 'DELETE' },
      { type: 'CANCEL' },
      done('renameConversation', 'Therapy'),
      failed('renameConversation'),
      done('deleteConversation'),
      failed('deleteConversation'),
    ],
  },
  export: {
    resting: ['idle'],
    events: [{ type: 'EXPORT', conversation: c1 }, done('exportConversation'), failed('exportConversation')],
  },
  drawer: { resting: ['closed'], events: [{ type: 'OPEN_DRAWER' }, { type: 'CLOSE_DRAWER' }] },
} satisfies Record<string, { resting: string[]; events: ModelEvent[] }>;
type ConversationsRegion = keyof typeof conversationsRegions;

export const conversationsModel: MachineModel = {
  name: 'conversations',
  provide: (world) =>
    conversationsMachine.provide({
      actors: {
        fetchPage: recording(world, 'fetchPage'),
        renameConversation: recording(world, 'renameConversation'),
        deleteConversation: recording(world, 'deleteConversation'),
        exportConversation: recording(world, 'exportConversation'),
      },
      actions: {
        leaveConversation: () => world.calls.push('leaveConversation'),
        closeSidePanel: () => world.calls.push('closeSidePanel'),
      },
    }),
  inputs: [undefined],
  // The regions are independent: one of them at a time leaves its resting state, which keeps the graph
  // small; RESET, which concerns them all, is offered everywhere.
  events: (snapshot) => {
    const value = snapshot.value as Record<ConversationsRegion, string>;
    const away = (Object.keys(conversationsRegions) as ConversationsRegion[]).filter(
      (region) => !conversationsRegions[region].resting.includes(value[region]),
    );
    return [
      { type: 'RESET' },
      ...(away.length === 0
        ? [
            { type: 'SHOW', conversation: c1 },
            { type: 'SHOW', conversation: null },
          ]
        : []),
      ...(Object.keys(conversationsRegions) as ConversationsRegion[])
        .filter((region) => away.length === 0 || away.includes(region))
        .flatMap((region) => conversationsRegions[region].events),
    ];
  },
  serialize: (snapshot) => {
    const { items, next, query, shownQuery, error, open, target, editError, exportError } = snapshot.context;
    return JSON.stringify([
      snapshot.value,
      items.map((item: { _id: string; title: string }) => `${item._id}:${item.title}`),
      next,
      query,
      shownQuery,
      !!error,
      open?.title ?? null,
      target?._id ?? null,
      !!editError,
      !!exportError,
    ]);
  },
  check: (snapshot, world, event) => {
    const { context } = snapshot;
    const fetches = world.calls.filter((call) => call.startsWith('fetchPage'));
    // Conversations without a message are never listed, and none twice.
    expect(context.items.some((item: { preview: string | null }) => item.preview === null)).toBe(false);
    const ids = context.items.map((item: { _id: string }) => item._id);
    expect(new Set(ids).size).toBe(ids.length);
    // Typing sends nothing until the pause; an emptied box lists everything at once.
    if (event?.type === 'SEARCH') {
      const query = (event as unknown as { query: string }).query;
      expect(context.query).toBe(query);
      if (query.trim()) expect(snapshot.matches({ list: 'debouncing' })).toBe(true);
      else expect(fetches.at(-1)).toBe('fetchPage {"query":"","cursor":""}');
    }
    if (event?.type === afterSearchDelay)
      expect(fetches.at(-1)).toBe('fetchPage {"query":"elizA","cursor":""}');
    if (snapshot.matches({ list: 'loadingMore' }))
      expect(fetches.at(-1)).toBe(`fetchPage {"query":"${context.shownQuery}","cursor":"cursor-2"}`);
    if (event?.type === 'xstate.done.actor.fetchMore') expect(ids).toContain('c3');
    if (snapshot.matches({ list: 'failed' })) expect(context.error).toBe('fetchPage failed');
    if (event?.type === 'LOAD_MORE' && context.next === null)
      expect(snapshot.matches({ list: 'loadingMore' })).toBe(false);
    // Renames are trimmed and refused when empty; the new title shows wherever the conversation does.
    if (event?.type === 'RENAME' && snapshot.matches({ edit: 'savingTitle' }))
      expect(world.calls.at(-1)).toBe('renameConversation {"id":"c1","title":"Therapy"}');
    if (event?.type === 'xstate.done.actor.renameConversation') {
      expect(context.items.find((item: { _id: string }) => item._id === 'c1')?.title ?? 'Therapy').toBe(
        'Therapy',
      );
      if (context.open?._id === 'c1') expect(context.open.title).toBe('Therapy');
    }
    if (event?.type === 'xstate.done.actor.deleteConversation') {
      expect(ids).not.toContain('c1');
      const left = world.calls.at(-1) === 'leaveConversation';
      expect(left).toBe(context.open?._id === 'c1');
    }
    if (event?.type?.startsWith('xstate.error.actor.') && event.type.includes('Conversation')) {
      if (event.type.endsWith('exportConversation'))
        expect(context.exportError).toBe('exportConversation failed');
      else expect(context.editError).toMatch(/Conversation failed$/);
    }
    if (snapshot.matches({ edit: 'idle' })) expect(context.target).toBeNull();
    if (event?.type === 'OPEN_DRAWER') expect(world.calls.at(-1)).toBe('closeSidePanel');
    if (event?.type === 'RESET') {
      expect(context).toMatchObject({ items: [], query: '', open: null, target: null });
      expect(snapshot.matches({ list: 'idle', drawer: 'closed' })).toBe(true);
    }
  },
};
