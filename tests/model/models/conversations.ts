import type { AnyMachineSnapshot } from 'xstate';
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
const inProject = { project: 'p1', archived: false };
const archivedOnes = { project: null, archived: true };
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
  arrange: { resting: ['idle'], events: [] as ModelEvent[] },
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

/**
 * Filters, moves, pins and archives, offered where no search is typed (the list's search paths are
 * walked above), so the graph does not multiply them by every search state.
 */
const filterEvents: ModelEvent[] = [
  { type: 'FILTER', filter: inProject },
  { type: 'FILTER', filter: archivedOnes },
];
const changeEvents: ModelEvent[] = [
  { type: 'START_MOVE', conversation: c1 },
  { type: 'MOVE', project: 'p1' },
  { type: 'MOVE', project: null },
  { type: 'CANCEL' },
  { type: 'CHANGE', conversation: c1, change: { pinned: true } },
  { type: 'CHANGE', conversation: c1, change: { archived: true } },
  done('moveConversation', { ...conversation('c1'), project: 'p1' }),
  done('moveConversation', { ...conversation('c1'), project: null }),
  failed('moveConversation'),
  done('changeConversation', { ...conversation('c1'), pinned: true }),
  done('changeConversation', { ...conversation('c1'), archived: true }),
  failed('changeConversation'),
];

const entry = (snapshot: AnyMachineSnapshot) => {
  const { query, next, open, error, editError, exportError } = snapshot.context;
  return (
    snapshot.matches({ list: 'loaded', edit: 'idle', arrange: 'idle', export: 'idle', drawer: 'closed' }) &&
    query === '' &&
    next === 'cursor-2' &&
    !open &&
    !error &&
    !editError &&
    !exportError
  );
};

export const conversationsModel: MachineModel = {
  name: 'conversations',
  provide: (world) =>
    conversationsMachine.provide({
      actors: {
        fetchPage: recording(world, 'fetchPage'),
        renameConversation: recording(world, 'renameConversation'),
        deleteConversation: recording(world, 'deleteConversation'),
        changeConversation: recording(world, 'changeConversation'),
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
    // Once filtered or changed, the list's own paths (search, pages) are not walked again.
    const { filter, items } = snapshot.context;
    const touched =
      filter.project !== null ||
      filter.archived ||
      items.some((item: { project?: string | null; pinned?: boolean; archived?: boolean }) =>
        Boolean(item.project || item.pinned || item.archived),
      );
    if (touched)
      return [
        { type: 'RESET' },
        done('fetchPage', firstPage),
        ...(away.length === 0 ? filterEvents : []),
        ...(away.length === 0 || away.includes('edit') || away.includes('arrange') ? changeEvents : []),
      ];
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
      // Into the filtered and changed world from one state only: the first page listed, nothing else on.
      ...(entry(snapshot) ? [...filterEvents, ...changeEvents] : []),
    ];
  },
  serialize: (snapshot) => {
    const { items, next, query, shownQuery, error, open, target, editError, exportError, filter } =
      snapshot.context;
    return JSON.stringify([
      snapshot.value,
      filter,
      items.map(
        (item: {
          _id: string;
          title: string;
          project?: string | null;
          pinned?: boolean;
          archived?: boolean;
        }) => `${item._id}:${item.title}:${item.project ?? ''}:${!!item.pinned}:${!!item.archived}`,
      ),
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
    const filter = JSON.stringify(context.filter);
    // Conversations without a message are never listed, and none twice.
    expect(context.items.some((item: { preview: string | null }) => item.preview === null)).toBe(false);
    const ids = context.items.map((item: { _id: string }) => item._id);
    expect(new Set(ids).size).toBe(ids.length);
    // Typing sends nothing until the pause; an emptied box lists everything at once.
    if (event?.type === 'SEARCH') {
      const query = (event as unknown as { query: string }).query;
      expect(context.query).toBe(query);
      if (query.trim()) expect(snapshot.matches({ list: 'debouncing' })).toBe(true);
      else expect(fetches.at(-1)).toBe(`fetchPage {"filter":${filter},"query":"","cursor":""}`);
    }
    if (event?.type === afterSearchDelay)
      expect(fetches.at(-1)).toBe(`fetchPage {"filter":${filter},"query":"elizA","cursor":""}`);
    if (snapshot.matches({ list: 'loadingMore' }))
      expect(fetches.at(-1)).toBe(
        `fetchPage {"filter":${filter},"query":"${context.shownQuery}","cursor":"cursor-2"}`,
      );
    // A filter lists afresh from the first page: a project's conversations, the archived ones or the others.
    if (event?.type === 'FILTER') {
      expect(context.filter).toEqual((event as unknown as { filter: unknown }).filter);
      expect(fetches.at(-1)).toBe(
        `fetchPage {"filter":${filter},"query":"${context.query.trim()}","cursor":""}`,
      );
    }
    // Moved, pinned or archived: asked of the server for the conversation the menu was opened on…
    if (snapshot.matches({ arrange: 'moving' }))
      expect(world.calls.at(-1)).toBe(
        `changeConversation {"id":"c1","change":{"project":${JSON.stringify((event as { project?: unknown }).project ?? null)}}}`,
      );
    if (event?.type === 'CHANGE')
      expect(world.calls.at(-1)).toBe(
        `changeConversation {"id":"c1","change":${JSON.stringify((event as { change?: unknown }).change)}}`,
      );
    // …and the answer shown where the list still holds it, else out of the list.
    if (
      event?.type === 'xstate.done.actor.moveConversation' ||
      event?.type === 'xstate.done.actor.changeConversation'
    ) {
      const stored = event.output as { project: string | null; archived?: boolean; pinned?: boolean };
      const listed = context.items.find((item: { _id: string }) => item._id === 'c1');
      const kept =
        !!context.shownQuery ||
        ((context.filter.project === null || stored.project === context.filter.project) &&
          !!stored.archived === context.filter.archived);
      if (!kept) expect(listed).toBeUndefined();
      else if (listed) expect(listed).toMatchObject(stored);
    }
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
      else if (event.type.endsWith('.changeConversation'))
        expect(context.changeError).toBe('changeConversation failed');
      else expect(context.editError).toMatch(/Conversation failed$/);
    }
    if (snapshot.matches({ edit: 'idle', arrange: 'idle' })) expect(context.target).toBeNull();
    if (event?.type === 'OPEN_DRAWER') expect(world.calls.at(-1)).toBe('closeSidePanel');
    if (event?.type === 'RESET') {
      expect(context).toMatchObject({ items: [], query: '', open: null, target: null });
      expect(snapshot.matches({ list: 'idle', drawer: 'closed' })).toBe(true);
    }
  },
};
