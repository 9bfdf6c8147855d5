import { assign, type EventObject } from 'xstate';
import { errorParams, messageOf } from './errors';

/**
 * The list region that the conversations of the sidebar, the members and every admin list share: the
 * first page asked for when the screen appears, the next ones on demand, a failed first page retried,
 * and, in the sidebar and the members, a search typed into a box. A machine takes the region's states
 * (`pagedListRegion`, `searchedListRegion`) and what they name in its setup (`…Actions`, `…Guards`,
 * `searchDelays`, and a `fetchPage` actor of its records), keeping the list's fields in its context.
 */

/** A page of a list; `next` continues it, null at its end (a list without paging answers one page). */
export interface Page<Item> {
  items: Item[];
  next: string | null;
}

/** What a paged list keeps in its machine's context. */
export interface PagedList<Item> {
  items: Item[];
  next: string | null;
  /** Why the last page could not be fetched. */
  error: string | null;
}

/** …and a list with a search box. */
export interface SearchedList<Item> extends PagedList<Item> {
  /** What the search box holds. */
  query: string;
  /** The search the listed items answer; '' for all of them. */
  shownQuery: string;
}

export const emptyList = { items: [], next: null, error: null } satisfies PagedList<never>;
export const emptySearchedList = { ...emptyList, query: '', shownQuery: '' } satisfies SearchedList<never>;

/** The states of the list region. */
export type ListState = 'idle' | 'debouncing' | 'loading' | 'loaded' | 'loadingMore' | 'failed';

/** The event that reads the list afresh, and the states it does so from. */
export interface Reload<Event extends string> {
  event: Event;
  from: Exclude<ListState, 'idle' | 'debouncing'>[];
}

type Listed = { _id: string };

/** The list's actions, for its machine's setup; `listed` drops the fetched items the list does not show. */
export function pagedListActions<
  TContext extends PagedList<Item>,
  TEvent extends EventObject,
  Item extends Listed,
>(listed: (items: Item[]) => Item[] = (items) => items) {
  return {
    assignFirstPage: assign<TContext, TEvent, { page: Page<Item> }, TEvent, never>((_, { page }) =>
      part<TContext>(firstPage(page, listed)),
    ),
    appendPage: assign<TContext, TEvent, { page: Page<Item> }, TEvent, never>(({ context }, { page }) =>
      part<TContext>({
        // An item that moved up while the pages were read is listed once, where it was first seen.
        items: [
          ...context.items,
          ...listed(page.items).filter((item) => !context.items.some((shown) => shown._id === item._id)),
        ],
        next: page.next,
        error: null,
      }),
    ),
    assignError: assign<TContext, TEvent, { error: unknown }, TEvent, never>((_, { error }) =>
      part<TContext>({ error: messageOf(error) }),
    ),
  };
}

/** …and those of a list with a search box: the first page answers the search in the box. */
export function searchedListActions<
  TContext extends SearchedList<Item>,
  TEvent extends EventObject,
  Item extends Listed,
>(listed: (items: Item[]) => Item[] = (items) => items) {
  return {
    ...pagedListActions<TContext, TEvent, Item>(listed),
    assignFirstPage: assign<TContext, TEvent, { page: Page<Item> }, TEvent, never>(({ context }, { page }) =>
      part<TContext>({ ...firstPage(page, listed), shownQuery: context.query.trim() }),
    ),
    assignQuery: assign<TContext, TEvent, { query: string }, TEvent, never>((_, { query }) =>
      part<TContext>({ query }),
    ),
  };
}

/** The list as a first page starts it. */
const firstPage = <Item>(page: Page<Item>, listed: (items: Item[]) => Item[]) => ({
  items: listed(page.items),
  next: page.next,
  error: null,
});

/** The list's fields of a machine's context: the context is the machine's own type, the list a part of it. */
const part = <TContext>(values: Partial<SearchedList<Listed>>) => values as Partial<TContext>;

export const pagedListGuards = {
  hasMore: ({ context }: { context: PagedList<unknown> }) => context.next !== null,
};

export const searchedListGuards = {
  ...pagedListGuards,
  /** An emptied search box lists everything again at once: there is nothing to wait for. */
  isClearingSearch: (_: unknown, { query }: { query: string }) => query.trim() === '',
};

export const searchDelays = {
  /** Typing pauses this long before the search goes out: one request per pause, not per key. */
  searchDelay: 300,
};

// The params of the region's actions and guards, from the event each transition takes.
const fetched = <Item>({ event }: { event: { output: Page<Item> } }) => ({ page: event.output });
const searched = ({ event }: { event: { query: string } }) => ({ query: event.query });

/** The states of a list whose first page is fetched with the input `first` makes, the next with `more`'s. */
function listStates<Event extends string, Context extends PagedList<unknown>, First, More>(
  reload: Reload<Event>,
  first: (args: { context: Context }) => First,
  more: (args: { context: Context }) => More,
) {
  /** The transitions that read the list afresh from `state`, if it is one the reload comes from. */
  const reloads = (state: Reload<Event>['from'][number]) =>
    (reload.from.includes(state)
      ? { [reload.event]: { target: 'loading', reenter: state === 'loading' } }
      : {}) as Partial<Record<Event, { target: 'loading'; reenter: boolean }>>;
  return {
    idle: {
      description: 'Nothing listed yet; the screen asks for the first page when it appears.',
      on: { LOAD: 'loading' },
    },
    loading: {
      description: 'Fetches the first page; asked for again meanwhile, it starts over.',
      invoke: {
        id: 'fetchPage',
        src: 'fetchPage',
        input: first,
        onDone: { target: 'loaded', actions: { type: 'assignFirstPage', params: fetched } },
        onError: { target: 'failed', actions: { type: 'assignError', params: errorParams } },
      },
      on: reloads('loading'),
    },
    loaded: {
      description: 'Listed; the next page can be asked for.',
      on: { LOAD_MORE: { guard: 'hasMore', target: 'loadingMore' }, ...reloads('loaded') },
    },
    loadingMore: {
      description: 'Fetches the page after the last one listed.',
      invoke: {
        id: 'fetchMore',
        src: 'fetchPage',
        input: more,
        onDone: { target: 'loaded', actions: { type: 'appendPage', params: fetched } },
        onError: { target: 'loaded', actions: { type: 'assignError', params: errorParams } },
      },
      on: reloads('loadingMore'),
    },
    failed: {
      description: 'The first page could not be fetched; it can be asked for again.',
      on: { RETRY: 'loading', ...reloads('failed') },
    },
  } as const;
}

/** The list region of a machine whose list has pages (`fetchPage` takes the cursor). */
export function pagedListRegion<Event extends string>(description: string, reload: Reload<Event>) {
  return {
    description,
    initial: 'idle',
    states: listStates(
      reload,
      () => ({ cursor: '' }),
      ({ context }: { context: PagedList<unknown> }) => ({ cursor: context.next ?? '' }),
    ),
  } as const;
}

/**
 * The list region of a machine whose list has pages and a search (`fetchPage` takes the query too, and
 * what `scope` reads from the context: which of the records the list holds).
 */
export function searchedListRegion<
  Event extends string,
  Context extends SearchedList<unknown> = SearchedList<unknown>,
  Scope extends object = object,
>(description: string, reload: Reload<Event>, scope: (context: Context) => Scope = () => ({}) as Scope) {
  const { idle, ...fetching } = listStates(
    reload,
    ({ context }: { context: Context }) => ({ ...scope(context), query: context.query.trim(), cursor: '' }),
    ({ context }) => ({ ...scope(context), query: context.shownQuery, cursor: context.next ?? '' }),
  );
  return {
    description,
    initial: 'idle',
    on: {
      SEARCH: [
        {
          guard: { type: 'isClearingSearch', params: searched },
          target: '.loading',
          actions: { type: 'assignQuery', params: searched },
        },
        { target: '.debouncing', actions: { type: 'assignQuery', params: searched } },
      ],
    },
    states: {
      idle,
      debouncing: {
        description: 'A search is being typed; it goes out once the typing pauses.',
        after: { searchDelay: 'loading' },
      },
      ...fetching,
    },
  } as const;
}
