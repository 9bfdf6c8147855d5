import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  initialTransition,
  transition,
} from 'xstate';
import { getAdjacencyMap, getShortestPaths, type StatePath } from 'xstate/graph';
import { type AxeTotals, blocking, formatTotals, noViolations, runAxe } from '../../support/axe';
import { launchBrowser } from '../../support/browser';
import { layoutProblems } from '../../support/fit';
import { type RunningServer, startServer } from '../../support/server';
import { allTransitions, transitionKey } from '../harness';

/** An event of a model: its type and any payload. */
export type ModelEvent = { type: string; [key: string]: unknown };
export type ModelPath = StatePath<AnyMachineSnapshot, ModelEvent>;

/**
 * The request an invoked actor makes. The browser holds it until the path says how the actor ends,
 * so every state that waits for the server can be seen and checked. `fails` says what its error event
 * is in the real world: the network failing (the request is aborted), or the server refusing what the
 * path typed (the request goes through; `perform` typed something the server refuses).
 */
export interface ActorRequest {
  /** One method, or several as `POST|PATCH` (e.g. a save that creates or changes). */
  method: string;
  /** Tested against the path and its query, so `?cursor=` tells a next page from the first. */
  path: RegExp;
  /** Tested against the request's body, where two actors send the same method to the same path. */
  body?: RegExp;
  fails?: 'network' | 'server';
}

/** A screen size the paths are walked at, each in browser contexts made at that size from the start. */
export interface Viewport {
  name: 'desktop' | 'phone';
  width: number;
  height: number;
}
export const desktop: Viewport = { name: 'desktop', width: 1280, height: 800 };
export const phone: Viewport = { name: 'phone', width: 375, height: 740 };

/** What one path has at hand: the browser page, the real server, and what `start` set up. */
export interface PathWorld {
  page: Page;
  context: BrowserContext;
  /** The size the path is walked at: a phone shows some controls in menus and drawers. */
  viewport: Viewport;
  server: RunningServer;
  /** The events of the whole path, so a step can arrange what a later one needs (e.g. a wrong password). */
  events: ModelEvent[];
  /** What the model's own steps keep between them (a topic id…). */
  data: Record<string, unknown>;
  /** What every path of the machine may reuse (e.g. an account made once). */
  shared: Record<string, unknown>;
}

export interface BrowserModel {
  /** The machine's name, as in docs/machines.md. */
  name: string;
  machine: AnyStateMachine;
  input?: unknown;
  /** What a person does and how the real server answers: every path is made of these. */
  events: ModelEvent[];
  /** The state's identity; by default its value, so each state is reached once. */
  serialize?: (snapshot: AnyMachineSnapshot) => string;
  /**
   * Whether a person can do the event in this state (default: whenever the machine takes it), so that
   * shortest paths are made only of steps the real world offers (e.g. no 401 before anything is asked).
   */
  possible?: (snapshot: AnyMachineSnapshot, event: ModelEvent, viewport: Viewport) => boolean;
  /** Paths the real world allows (e.g. an account without money never sees a reply start). */
  allows?: (path: ModelPath) => boolean;
  /** Invoked actors (by invoke id) and the requests they make. */
  requests?: Record<string, ActorRequest>;
  /**
   * Its walks may go on from where they end to check more (see `chained`): each walk boots the app, most
   * of its time. A model whose steps assume a walk that started fresh (the server's data it made, a
   * failure just seen) leaves it off.
   */
  chainWalks?: boolean;
  /** The model holds or drops some requests itself with `page.route` (see HeldRequests.install). */
  ownRoutes?: boolean;
  /** The server's environment for this machine's paths. */
  server?: Record<string, string>;
  /** Launches the browser its walks need (e.g. with a fake microphone); the headless shell by default. */
  launch?: () => Promise<Browser>;
  /** Ends what `start` made for every path (kept in `shared`), e.g. a model provider's double. */
  finish?: (shared: Record<string, unknown>) => Promise<void>;
  /** Opens the app where the path starts, as a fresh browser (own storage) would. */
  start: (world: PathWorld) => Promise<void>;
  /** Does on screen what the event means, or lets the held request of an actor's done event through. */
  perform: (world: PathWorld, event: ModelEvent, index: number) => Promise<void>;
  /** What the screen must show in this state. Retried until it holds: waits depend on the screen. */
  expectScreen: (world: PathWorld, snapshot: AnyMachineSnapshot) => Promise<void>;
}

/**
 * Whether nothing follows the first event that ends a walk (`ends`): after it the screen the walk's
 * start opened is gone (logged out, say), so a chain stops there.
 */
export function nothingAfter(path: ModelPath, ends: (event: ModelEvent) => boolean) {
  const events = path.steps.slice(1).map((step) => step.event);
  const at = events.findIndex(ends);
  return at < 0 || at === events.length - 1;
}

/** A state's readable name: its value with regions joined, e.g. `auth.loggedIn, oneTimeCode.idle`. */
export function stateName(snapshot: AnyMachineSnapshot): string {
  const flatten = (value: unknown, prefix: string): string[] =>
    typeof value === 'string'
      ? [`${prefix}${value}`]
      : Object.entries(value as Record<string, unknown>).flatMap(([key, child]) =>
          flatten(child, `${prefix}${key}.`),
        );
  return flatten(snapshot.value, '').join(', ');
}

const serializeOf = (model: BrowserModel) => model.serialize ?? stateName;
/** A path's name: where its own events lead (the graph's snapshot may be another path's), and the events. */
const describePath = (model: BrowserModel, path: ModelPath) => {
  const events = path.steps.slice(1).map((step) => step.event);
  return `${stateName(ownStates(model, events).at(-1) as AnyMachineSnapshot)} ← ${
    events.map((event) => event.type).join(' → ') || '(start)'
  }`;
};

/** The model's events the machine takes in this state and a person can do there at that size. */
const eventsIn = (model: BrowserModel, snapshot: AnyMachineSnapshot, viewport: Viewport) =>
  model.events.filter(
    (event) => snapshot.can(event as never) && (model.possible?.(snapshot, event, viewport) ?? true),
  );

/**
 * Every state the model's events reach, and the shortest path to each: as the machine takes them, or
 * (`possible`) only through steps a person can do.
 */
export function allStatePaths(
  model: BrowserModel,
  { possible = false, viewport = desktop }: { possible?: boolean; viewport?: Viewport } = {},
): ModelPath[] {
  const serialize = serializeOf(model);
  return getShortestPaths(model.machine, {
    input: model.input,
    events: (snapshot: AnyMachineSnapshot) =>
      possible
        ? eventsIn(model, snapshot, viewport)
        : model.events.filter((event) => snapshot.can(event as never)),
    serializeState: (snapshot: AnyMachineSnapshot) => serialize(snapshot),
  } as never) as unknown as ModelPath[];
}

/** The events a transition's actions raise at once (`raise({ type })`, no delay), by the machine's own name for them. */
function raisedBy(machine: AnyStateMachine, actions: readonly unknown[]): ModelEvent[] {
  const implementations = machine.implementations.actions as Record<string, unknown>;
  return actions.flatMap((action) => {
    const name = typeof action === 'string' ? action : (action as { type?: string } | null)?.type;
    const raise = (typeof action === 'function' ? action : implementations[name ?? '']) as
      | { type?: string; event?: unknown; delay?: unknown }
      | undefined;
    return raise?.type === 'xstate.raise' && typeof raise.event === 'object' && raise.delay === undefined
      ? [raise.event as ModelEvent]
      : [];
  });
}

/**
 * The transitions (as the model harness names them) an event takes from a state, and those of the
 * events its actions raise (e.g. a list read again after a save: the other regions are where they
 * were); eventless ones aside.
 */
function transitionsOf(machine: AnyStateMachine, from: AnyMachineSnapshot, event: ModelEvent): string[] {
  const definitions = machine.getTransitionData(from as never, event as never);
  const raised = raisedBy(
    machine,
    definitions.flatMap((definition) => definition.actions),
  );
  return [
    ...definitions.map((definition) => transitionKey(definition.source, definition.eventType, definition)),
    ...raised.flatMap((inner) => transitionsOf(machine, from, inner)),
  ];
}

const transitionsAlong = (machine: AnyStateMachine, path: ModelPath) =>
  path.steps.slice(1).flatMap((step, index) => transitionsOf(machine, path.steps[index].state, step.event));

/**
 * The paths the browser walks at a screen size: the shortest one to every state the real world allows
 * (the first `toStates`), then, for each transition none of them takes, a shortest path to its source
 * state and the event that takes it. A phone has its own: what a person can do there differs (a drawer
 * to open first, say).
 */
const pathsOfModel = new WeakMap<BrowserModel, Map<Viewport, { paths: ModelPath[]; toStates: number }>>();
export function browserPathsByKind(
  model: BrowserModel,
  viewport: Viewport = desktop,
): { paths: ModelPath[]; toStates: number } {
  const known = pathsOfModel.get(model)?.get(viewport);
  if (known) return known;
  const allowed = (path: ModelPath) => model.allows?.(path) ?? true;
  const shortest = allStatePaths(model, { possible: true, viewport });
  const paths = shortest.filter(allowed);
  const toStates = paths.length;
  const covered = new Set(paths.flatMap((path) => transitionsAlong(model.machine, path)));
  const serialize = serializeOf(model);
  const adjacency = getAdjacencyMap(model.machine, {
    input: model.input,
    events: (snapshot: AnyMachineSnapshot) => eventsIn(model, snapshot, viewport),
    serializeState: (snapshot: AnyMachineSnapshot) => serialize(snapshot),
  } as never);
  const prefixOf = new Map(shortest.map((path) => [serialize(path.state), path]));
  for (const [key, { state, transitions }] of Object.entries(adjacency)) {
    const prefix = prefixOf.get(key);
    if (!prefix) continue;
    for (const { event, state: next } of Object.values(transitions) as {
      event: ModelEvent;
      state: AnyMachineSnapshot;
    }[]) {
      const taken = transitionsOf(model.machine, state as AnyMachineSnapshot, event);
      if (taken.every((transition) => covered.has(transition))) continue;
      const path = { state: next, steps: [...prefix.steps, { state: next, event }], weight: 0 } as ModelPath;
      if (!allowed(path)) continue;
      for (const transition of taken) covered.add(transition);
      paths.push(path);
    }
  }
  if (!pathsOfModel.has(model)) pathsOfModel.set(model, new Map());
  pathsOfModel.get(model)?.set(viewport, { paths, toStates });
  return { paths, toStates };
}

/** The paths the browser walks: first the shortest to each state, then one for each transition they miss. */
export const browserPaths = (model: BrowserModel, viewport: Viewport = desktop): ModelPath[] =>
  browserPathsByKind(model, viewport).paths;

/** Transitions taken by the browser's paths, of all the machine defines (eventless ones aside). */
export function transitionCoverage(model: BrowserModel) {
  const all = [...allTransitions(model.machine)].filter((key) => !key.includes(' ─ always '));
  const taken = new Set(browserPaths(model).flatMap((path) => transitionsAlong(model.machine, path)));
  return { covered: all.filter((key) => taken.has(key)), all };
}

/** The machine's atomic states (leaves), by id: every one must be reached by some path. */
export function atomicStates(machine: AnyStateMachine): string[] {
  const leaves: string[] = [];
  const visit = (node: AnyStateNode) => {
    const children = Object.values(node.states) as AnyStateNode[];
    // A state left at once by an unguarded eventless transition is never rested in: nothing to see.
    const transient = node.always?.some((transition) => !transition.guard) ?? false;
    if (children.length === 0 && node.type !== 'history' && !transient) leaves.push(node.id);
    for (const child of children) visit(child);
  };
  visit(machine.root);
  return leaves;
}

/**
 * The snapshots of a path, replayed from its own events: the graph shares one snapshot per state
 * identity among paths, so a step's snapshot may carry the context another path gave it.
 */
function ownStates(model: BrowserModel, events: ModelEvent[]): AnyMachineSnapshot[] {
  const [first] = initialTransition(model.machine, model.input as never);
  const states: AnyMachineSnapshot[] = [first];
  for (const event of events)
    states.push(transition(model.machine, states.at(-1) as never, event as never)[0]);
  return states;
}

/** Retries `check` until it passes: the screen decides when a step is done, not a clock. */
export async function until(check: () => Promise<unknown>, timeout = 15_000): Promise<void> {
  const deadline = Date.now() + timeout;
  for (let delay = 25; ; delay = Math.min(delay * 2, 250)) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/**
 * A request the browser holds for the path: ended by letting it through or failing it as a network would.
 * Each resolves once the page has the outcome (or after a while, for a stream that stays open).
 */
interface HeldRequest {
  proceed: () => Promise<unknown>;
  fail: () => Promise<unknown>;
  /** The app gave up on it (an aborted fetch): nothing of the path ends it any more. */
  abandoned?: boolean;
}

/** How long an ended request may take to reach the page before the path goes on regardless (a stream). */
const answerWait = 3_000;

/** Resolves with the promise, or after `ms` when it takes longer. */
const atMost = (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise.catch(() => {}), new Promise((resolve) => setTimeout(resolve, ms))]);

/**
 * Requests of modelled actors, held until the path ends them. They are paused through the DevTools
 * Fetch domain for the API's paths only, not with Playwright's routes: a route intercepts every request
 * and turns the HTTP cache off, so each walk would fetch and compile the whole app again.
 */
class HeldRequests {
  private held = new Map<string, HeldRequest[]>();
  private waiters = new Map<string, (() => void)[]>();
  private devtools?: CDPSession;
  private page?: Page;

  constructor(private requests: Record<string, ActorRequest>) {}

  /**
   * Holds the actors' requests of the page: through the DevTools Fetch domain, or through Playwright's
   * routes when the model routes requests itself (`ownRoutes`), so that its routes and these form one chain.
   */
  async install(context: BrowserContext, page: Page, ownRoutes: boolean) {
    this.page = page;
    const hold = (actor: string, held: HeldRequest) => {
      this.held.set(actor, [...(this.held.get(actor) ?? []), held]);
      for (const wake of this.waiters.get(actor) ?? []) wake();
      this.waiters.delete(actor);
    };
    if (ownRoutes) {
      await page.route(
        (url) => /^\/(api|auth)\//.test(url.pathname),
        async (route) => {
          const request = route.request();
          const actor = this.actorOf(request.method(), request.url(), request.postData());
          if (!actor) return route.continue().catch(() => {});
          const answered = async () => (await request.response())?.finished();
          hold(actor, {
            proceed: async () => {
              await route.continue();
              await atMost(answered(), answerWait);
            },
            fail: () => route.abort('failed').catch(() => {}),
          });
        },
      );
      return;
    }
    const devtools = await context.newCDPSession(page);
    this.devtools = devtools;
    // The network's word that a request let through has been answered, by the id the pause gives.
    const loaded = new Map<string, () => void>();
    // A paused request the app aborts is cancelled: the path's next end is for the request after it.
    const pausedById = new Map<string, HeldRequest>();
    const settle = ({ requestId, canceled }: { requestId: string; canceled?: boolean }) => {
      const paused = pausedById.get(requestId);
      if (paused && canceled) paused.abandoned = true;
      pausedById.delete(requestId);
      loaded.get(requestId)?.();
      loaded.delete(requestId);
    };
    devtools.on('Network.loadingFinished', settle);
    devtools.on('Network.loadingFailed', settle);
    devtools.on('Fetch.requestPaused', ({ requestId, request, networkId }) => {
      const send = (method: 'Fetch.continueRequest' | 'Fetch.failRequest', extra = {}) =>
        devtools.send(method, { requestId, ...extra }).catch(() => {});
      const actor = this.actorOf(request.method, request.url, request.postData ?? null);
      if (!actor) return void send('Fetch.continueRequest');
      const answered = new Promise<void>((resolve) => networkId && loaded.set(networkId, resolve));
      const paused: HeldRequest = {
        proceed: async () => {
          await send('Fetch.continueRequest');
          await atMost(answered, answerWait);
        },
        fail: () => send('Fetch.failRequest', { errorReason: 'Failed' }),
      };
      if (networkId) pausedById.set(networkId, paused);
      hold(actor, paused);
    });
    await devtools.send('Network.enable');
    await devtools.send('Fetch.enable', {
      patterns: ['*/api/*', '*/auth/*'].map((urlPattern) => ({
        urlPattern,
        requestStage: 'Request' as const,
      })),
    });
  }

  private actorOf(method: string, url: string, body: string | null): string | undefined {
    const { pathname, search } = new URL(url);
    if (!/^\/(api|auth)\//.test(pathname)) return undefined;
    return Object.entries(this.requests).find(
      ([, request]) =>
        request.method.split('|').includes(method) &&
        request.path.test(pathname + search) &&
        (request.body?.test(body ?? '') ?? true),
    )?.[0];
  }

  /**
   * Fails every request still held when a walk ends (none may reach the server after its walk), and
   * stops holding: the page serves the next walk.
   */
  async abortAll() {
    const held = [...this.held.values()].flat();
    this.held.clear();
    await Promise.all(held.map((request) => request.fail()));
    await this.devtools?.detach().catch(() => {});
  }

  /** Ends the actor's oldest held request, waiting for the app to make it. */
  async end(actor: string, outcome: 'done' | 'error') {
    const waiting = () => (this.held.get(actor) ?? []).filter((request) => !request.abandoned);
    while (!waiting().length) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the app never asked for ${actor}`)), 15_000);
        this.waiters.set(actor, [
          ...(this.waiters.get(actor) ?? []),
          () => {
            clearTimeout(timer);
            resolve();
          },
        ]);
      });
    }
    const [request, ...rest] = waiting();
    this.held.set(actor, rest);
    if (outcome === 'error' && this.requests[actor].fails !== 'server') await request.fail();
    else await request.proceed();
    // The app acts on the answer in its next tasks: the next check must not see the screen before it.
    await atMost(
      this.page?.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)))) ??
        Promise.resolve(),
      answerWait,
    );
  }
}

const actorEvent = /^xstate\.(done|error)\.actor\.(.+)$/;

/** What goes wrong on a page that no screen check sees: errors, CSP violations, 5xx answers. */
function watchProblems(page: Page, problems: string[]) {
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // The browser logs every failed request; which requests fail is the path's business, checked on screen.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      problems.push(`console error: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 500) problems.push(`${response.status()} from ${response.url()}`);
  });
}

/** The focused element is on screen (or nothing has focus yet). */
const focusIsVisible = (page: Page) =>
  page.evaluate(() => {
    const focused = document.activeElement;
    if (!focused || focused === document.body) return 'body';
    const box = focused.getBoundingClientRect();
    const shown = focused.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
    return shown && box.width > 0 && box.height > 0
      ? 'visible'
      : `hidden: ${focused.tagName.toLowerCase()} ${focused.getAttribute('aria-label') ?? focused.textContent?.slice(0, 40)}`;
  });

/** Where `npm run gallery` writes its screenshots (git ignores it), and a shot's file there. */
export const galleryFolder = 'docs/gallery';
export const colourSchemes = ['light', 'dark'] as const;
export const galleryFile = (
  machine: string,
  pathIndex: number,
  viewport: Viewport,
  scheme: (typeof colourSchemes)[number],
) => `${machine}/${String(pathIndex).padStart(3, '0')}-${viewport.width}-${scheme}.png`;

/**
 * The path's end, light and dark. Times the server stamped are masked: its clock is the real one, so two
 * runs give the same pictures.
 */
async function photograph(page: Page, file: (scheme: (typeof colourSchemes)[number]) => string) {
  const { default: sharp } = await import('sharp');
  for (const scheme of colourSchemes) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    const png = await page.screenshot({
      animations: 'disabled',
      caret: 'hide',
      mask: [page.locator('time')],
      maskColor: '#9e9e9e',
    });
    const target = join(galleryFolder, file(scheme));
    mkdirSync(dirname(target), { recursive: true });
    // A palette keeps a screenshot of flat UI at a third of its size, without visible loss.
    await sharp(png).png({ palette: true, quality: 90, effort: 7 }).toFile(target);
  }
}

/** A state the gallery shows: an atomic state, on the first path that ends in it. */
export interface GalleryState {
  id: string;
  /** The region it belongs to: a region of a parallel state, or the machine. */
  region: AnyStateNode;
  node: AnyStateNode;
  pathIndex: number;
  events: string[];
}

/**
 * Each atomic state once, with the first path that ends in it: states of parallel regions are shown by
 * region, not in every combination, and a path that ends in several shows them in one picture.
 */
export function galleryStates(model: BrowserModel, viewport: Viewport): GalleryState[] {
  const paths = browserPaths(model, viewport);
  const regionOf = (node: AnyStateNode): AnyStateNode => {
    let region = node;
    while (region.parent && region.parent.type !== 'parallel') region = region.parent;
    return region.parent ? region : model.machine.root;
  };
  return atomicStates(model.machine).flatMap((id) => {
    const pathIndex = paths.findIndex((path) => [...path.state._nodes].some((node) => node.id === id));
    if (pathIndex < 0) return [];
    const node = model.machine.getStateNodeById(id);
    const events = paths[pathIndex].steps.slice(1).map((step) => step.event.type);
    return [{ id, region: regionOf(node), node, pathIndex, events }];
  });
}

/** The command that walks one path again, printed with its failure. */
const replayCommand = (model: BrowserModel, viewport: Viewport, events: ModelEvent[]) =>
  `REPLAY='${events.map((event) => event.type).join(' → ')}' VIEWPORT=${viewport.width} ` +
  `npx vitest run --project browser-model tests/model/browser/${model.name}.test.ts`;

/** CSP violations reach the console, where `watchProblems` reads them. */
const reportCspViolations = () => {
  document.addEventListener('securitypolicyviolation', (event) => {
    console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
  });
};

/**
 * One browser context and one page per screen size for all of a machine's walks: a new page costs a
 * renderer process (about 1.7 s of CPU a walk, twice the app's own boot), a new context also fetches
 * and compiles the app again. Between walks the page goes to about:blank and what a walk left behind is
 * removed: its storage (cookies, local storage, IndexedDB, caches) on every origin it visited, the init
 * scripts, routes and listeners it added, and the network, viewport and media it changed.
 */
class WarmContexts {
  private contexts = new Map<string, Promise<{ context: BrowserContext; page: Page }>>();
  constructor(private browser: Browser) {}

  private async create(viewport: Viewport) {
    const context = await this.browser.newContext({
      viewport: { width: viewport.width, height: viewport.height },
      locale: 'en-US',
      timezoneId: 'UTC',
      // No machine walked here is the offline worker's: without it a fresh context does not fetch
      // and cache the whole app again (18 requests a path), and every request reaches the routes.
      serviceWorkers: 'block',
    });
    await context.addInitScript(reportCspViolations);
    return { context, page: await context.newPage() };
  }

  private async pageAt(viewport: Viewport) {
    let warm = this.contexts.get(viewport.name);
    if (!warm) {
      warm = this.create(viewport);
      this.contexts.set(viewport.name, warm);
    }
    const at = await warm;
    // A page a walk crashed or closed is replaced.
    if (at.page.isClosed()) at.page = await at.context.newPage();
    return at;
  }

  async open(viewport: Viewport) {
    const { context: shared, page } = await this.pageAt(viewport);
    const added: { dispose: () => Promise<unknown> }[] = [];
    // A walk's init scripts (a stored token, say) are its own: recorded so they can be removed.
    const context = new Proxy(shared, {
      get(target, property, receiver) {
        if (property === 'addInitScript')
          return async (...args: Parameters<BrowserContext['addInitScript']>) => {
            const script = await target.addInitScript(...args);
            added.push(script as unknown as { dispose: () => Promise<unknown> });
            return script;
          };
        const value = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const origins = new Set<string>();
    page.on('request', (request) => {
      const { protocol, origin } = new URL(request.url());
      if (protocol.startsWith('http')) origins.add(origin);
    });
    const release = async () => {
      if (!page.isClosed()) {
        page.removeAllListeners();
        await page.unrouteAll({ behavior: 'ignoreErrors' });
        await page.goto('about:blank');
        await page.setViewportSize({ width: viewport.width, height: viewport.height });
        await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
      }
      // Through the page the next walk uses (a new one if this walk's was closed).
      const devtools = await shared.newCDPSession((await this.pageAt(viewport)).page);
      for (const origin of origins)
        await devtools.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
      await devtools.detach();
      await Promise.all(added.map((script) => script.dispose()));
      await shared.clearCookies();
      await shared.setOffline(false);
    };
    return { context, page, release };
  }

  close() {
    return Promise.all([...this.contexts.values()].map(async (warm) => (await warm).context.close()));
  }
}

/** One walk: a path at a screen size. */
interface Walk {
  path: ModelPath;
  index: number;
  viewport: Viewport;
}

/**
 * What a path checks on its way: every state it passes (the screen is checked at every step) and every
 * transition it takes, by the names the coverage uses.
 */
function stepsChecked(model: BrowserModel, path: ModelPath): string[] {
  const events = path.steps.slice(1).map((step) => step.event);
  const [first] = initialTransition(model.machine, model.input as never);
  return [`state ${serializeOf(model)(first)}`, ...checksAlong(model, first, events)];
}

/** What the events check from a state on: each state they lead to, and each transition they take. */
function checksAlong(model: BrowserModel, from: AnyMachineSnapshot, events: ModelEvent[]): string[] {
  const serialize = serializeOf(model);
  const states = [from];
  for (const event of events)
    states.push(transition(model.machine, states.at(-1) as never, event as never)[0]);
  return [
    ...states.slice(1).map((state) => `state ${serialize(state)}`),
    ...events.flatMap((event, index) => transitionsOf(model.machine, states[index], event)),
  ];
}

/**
 * The walks that check something no other walk does, longest first: a path that only retraces the start
 * of a longer one (the way to a state on the way to another) adds nothing, since every step is checked.
 */
function withoutRetraced(model: BrowserModel, walks: Walk[]): Walk[] {
  const seen = new Set<string>();
  const kept = [...walks]
    .sort((a, b) => b.path.steps.length - a.path.steps.length)
    .filter(({ path }) => {
      const checks = stepsChecked(model, path);
      if (checks.every((check) => seen.has(check))) return false;
      for (const check of checks) seen.add(check);
      return true;
    });
  return walks.filter((walk) => kept.includes(walk));
}

/** The longest chain of steps one walk is made of: a failure is still read from its printed events. */
const chainSteps = 16;

/**
 * The walks' checks in as few walks as their paths allow: each walk boots the app once (most of its
 * time), so a walk goes on from where it ends, by the shortest way a person can take, to the nearest
 * state or transition no walk has checked yet, until it is `chainSteps` long or nothing is left. Every
 * check of the walks it replaces is made; the whole chain must be a path the real world allows.
 */
function chained(model: BrowserModel, walks: Walk[], viewport: Viewport): Walk[] {
  const serialize = serializeOf(model);
  const asPath = (events: ModelEvent[]): ModelPath => {
    const states = ownStates(model, events);
    return {
      state: states.at(-1),
      steps: states.map((state, index) => ({
        state,
        event: index ? events[index - 1] : { type: 'xstate.init' },
      })),
      weight: events.length,
    } as never as ModelPath;
  };
  const open = new Set(walks.flatMap((walk) => stepsChecked(model, walk.path)));
  const chains: Walk[] = [];
  for (const walk of walks) {
    let events = walk.path.steps.slice(1).map((step) => step.event);
    if (!stepsChecked(model, walk.path).some((check) => open.has(check))) continue;
    for (;;) {
      const path = asPath(events);
      for (const check of stepsChecked(model, path)) open.delete(check);
      if (events.length >= chainSteps || open.size === 0) break;
      const onward = getShortestPaths(model.machine, {
        fromState: path.state,
        events: (snapshot: AnyMachineSnapshot) => eventsIn(model, snapshot, viewport),
        serializeState: (snapshot: AnyMachineSnapshot) => serialize(snapshot),
      } as never) as unknown as ModelPath[];
      // The nearest state that checks something new, itself or by one more event from it.
      const ways = onward
        .flatMap((to) => {
          const way = to.steps.slice(1).map((step) => step.event);
          return [way, ...eventsIn(model, to.state, viewport).map((event) => [...way, event])];
        })
        .filter((way) => way.length > 0 && events.length + way.length <= chainSteps)
        .sort((a, b) => a.length - b.length);
      const next = ways.find((way) => {
        const longer = asPath([...events, ...way]);
        return (
          checksAlong(model, path.state, way).some((check) => open.has(check)) &&
          (model.allows?.(longer) ?? true)
        );
      });
      if (!next) break;
      events = [...events, ...next];
    }
    chains.push({ path: asPath(events), index: walk.index, viewport });
  }
  return chains;
}

/**
 * The walks of a machine: every path at desktop size, and at phone size the shortest path to every
 * state, so each state is checked at both sizes; of those, the ones that are not the start of a longer
 * one, chained into as few walks as they allow where the model says so (the gallery photographs every
 * path's end, so it walks them all, unchained). With REPLAY (and VIEWPORT) set, only the walk of those
 * events.
 */
function walksOf(model: BrowserModel): Walk[] {
  const onPhone = browserPathsByKind(model, phone);
  const atSize = (paths: ModelPath[], viewport: Viewport) => {
    const walks = paths.map((path, index) => ({ path, index, viewport }));
    if (process.env.GALLERY) return walks;
    const kept = withoutRetraced(model, walks);
    return model.chainWalks ? chained(model, kept, viewport) : kept;
  };
  const walks = [
    ...atSize(browserPaths(model, desktop), desktop),
    ...atSize(onPhone.paths.slice(0, onPhone.toStates), phone),
  ];
  const replay = process.env.REPLAY;
  if (replay === undefined) return walks;
  const width = Number(process.env.VIEWPORT ?? desktop.width);
  const all = [
    ...walks,
    ...browserPaths(model, desktop).map((path, index) => ({ path, index, viewport: desktop })),
    ...onPhone.paths.map((path, index) => ({ path, index, viewport: phone })),
  ];
  const matching = all.filter(
    ({ path, viewport }) =>
      viewport.width === width &&
      path.steps
        .slice(1)
        .map((step) => step.event.type)
        .join(' → ') === replay.trim(),
  );
  return matching.slice(0, 1);
}

/**
 * Walks the shortest path to every state of the model's machine in Chromium against the real server,
 * at desktop and phone size, each in a context made at that size. At every step: the screen the state
 * means (retried until it holds), and a page that fits its width with every visible control on screen;
 * at the first step in each state (per width), axe-core (no critical or serious violation) and a
 * visible focus. At each path's end: no console error, CSP violation or 5xx. Prints, per machine, the
 * states checked at each size, the transitions walked (and any not walked) and axe's totals by impact.
 * With GALLERY set, photographs the paths the gallery shows (gallery.ts) for docs/gallery.
 */
export function runInBrowser(model: BrowserModel) {
  // What a person can reach: parallel regions alone would multiply into states nobody can produce.
  const reachable = {
    desktop: allStatePaths(model, { possible: true, viewport: desktop }).length,
    phone: allStatePaths(model, { possible: true, viewport: phone }).length,
  };
  const { paths } = browserPathsByKind(model);
  const walks = walksOf(model);
  const gallery = Boolean(process.env.GALLERY);
  const photographed = (viewport: Viewport) =>
    new Set(gallery ? galleryStates(model, viewport).map((state) => state.pathIndex) : []);
  const shots = { desktop: photographed(desktop), phone: photographed(phone) };
  const serialize = serializeOf(model);

  describe(`${model.name}: generated paths in Chromium against the real server`, () => {
    let server: RunningServer;
    let browser: Browser;
    let contexts: WarmContexts;
    const totals: AxeTotals = noViolations();
    const checked = { desktop: new Set<string>(), phone: new Set<string>() };
    let walked = 0;
    const shared: Record<string, unknown> = {};

    beforeAll(async () => {
      [server, browser] = await Promise.all([
        startServer({
          BUILTIN_TOKEN_DELAY_MS: '5',
          RATE_LIMIT_OTP_PER_IP_PER_HOUR: '10000',
          ...model.server,
        }),
        model.launch?.() ?? launchBrowser(),
      ]);
      contexts = new WarmContexts(browser);
    });
    afterAll(async () => {
      const { covered, all: transitions } = transitionCoverage(model);
      const complete = walked === walks.length;
      console.log(
        `${model.name}: browser states checked: ${checked.desktop.size}/${reachable.desktop} at ${desktop.width} px, ` +
          `${checked.phone.size}/${reachable.phone} at ${phone.width} px; ` +
          `transitions: ${complete ? covered.length : '?'}/${transitions.length}; axe: ${formatTotals(totals)}`,
      );
      const notWalked = transitions.filter((key) => !covered.includes(key));
      if (notWalked.length)
        console.log(`${model.name}: transitions not walked:\n  ${notWalked.join('\n  ')}`);
      await model.finish?.(shared);
      await browser?.close();
      await server?.stop();
    });

    it('every atomic state of the machine is on some path the browser walks', () => {
      const onPaths = new Set(
        paths.flatMap((path) => path.steps.flatMap((step) => [...step.state._nodes].map((node) => node.id))),
      );
      expect(atomicStates(model.machine).filter((id) => !onPaths.has(id))).toEqual([]);
    });

    it.each(
      walks.map((walk) => [`${walk.viewport.width} px: ${describePath(model, walk.path)}`, walk] as const),
    )('%s', async (name, { path, index, viewport }) => {
      const { context, page, release } = await contexts.open(viewport);
      const problems: string[] = [];
      watchProblems(page, problems);
      const held = new HeldRequests(model.requests ?? {});
      await held.install(context, page, model.ownRoutes ?? false);
      const events = path.steps.slice(1).map((step) => step.event);
      const states = ownStates(model, events);
      const world: PathWorld = { page, context, viewport, server, events, data: {}, shared };
      const fail = (error: Error, at: number) => {
        throw new Error(
          `${error.message}\n  in ${stateName(states[at])} at ${viewport.width} px after ${
            events
              .slice(0, at)
              .map((event) => event.type)
              .join(' → ') || '(start)'
          }\n  replay: ${replayCommand(model, viewport, events)}`,
        );
      };
      /**
       * The state's screen, then a page that fits the viewport; axe and a visible focus the first time a
       * walk at this width is in the state.
       */
      const check = async (at: number) => {
        await until(() => model.expectScreen(world, states[at])).catch((error: Error) => fail(error, at));
        await until(async () => expect(await layoutProblems(page)).toEqual([])).catch((error: Error) =>
          fail(error, at),
        );
        const key = serialize(states[at]);
        if (checked[viewport.name].has(key)) return;
        const where = `${stateName(states[at])} in ${name}`;
        expect(blocking(await runAxe(page, totals)), `axe in ${where}`).toEqual([]);
        expect(await focusIsVisible(page), `focus in ${where}`).not.toMatch(/^hidden/);
        checked[viewport.name].add(key);
      };
      try {
        await model.start(world);
        await check(0);
        for (const [step, { event }] of path.steps.slice(1).entries()) {
          const ending = actorEvent.exec(event.type);
          try {
            // An actor that makes no request (the microphone, say) ends on its own: `perform` waits for it.
            if (ending && model.requests?.[ending[2]])
              await held.end(ending[2], ending[1] as 'done' | 'error');
            await model.perform(world, event, step);
          } catch (error) {
            fail(
              Object.assign(error as Error, { message: `${event.type}: ${(error as Error).message}` }),
              step,
            );
          }
          await check(step + 1);
        }
        expect(problems, `problems in ${name}`).toEqual([]);
        if (shots[viewport.name].has(index))
          await photograph(page, (scheme) => galleryFile(model.name, index, viewport, scheme));
        walked += 1;
      } finally {
        await held.abortAll();
        await release();
      }
    });
  });
}
