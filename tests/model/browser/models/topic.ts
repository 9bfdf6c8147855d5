import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import { connect, createServer, type Socket } from 'node:net';
import type { Page, Route } from 'playwright-core';
import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { streamingReply } from '../../../../machines/messageTree';
import { topicMachine } from '../../../../machines/topic';
import { loginOwner } from '../../../server/admin/support';
import { call, signUp, type TestServer } from '../../../support/app';
import type { ChatRequest, OpenAiDouble, Script } from '../../../support/openai-double';
import type { RunningServer } from '../../../support/server';
import type { ActorRequest, BrowserModel, ModelEvent, ModelPath, PathWorld } from '../runner';
import { stateName } from '../runner';

/** The words a held reply writes, one a token, as far as a path lets it. */
const words = ['One ', 'two ', 'three ', 'four ', 'five ', 'six ', 'seven ', 'eight ', 'nine ', 'ten '];

interface HeldReply {
  /** Tokens the path has let through. */
  allowed: number;
  /** open: waits for more; done: finishes; drop: the connection is cut mid-reply. */
  end: 'open' | 'done' | 'drop';
}

/**
 * Replies of the OpenAI double (its real wire format) that go on only when a path says so: while held,
 * the double sends empty deltas (which carry no text and keep the connection alive) until the path
 * lets the next word through or ends the reply.
 */
export class HeldReplies {
  private replies: HeldReply[] = [];
  /** While set, replies are written at once: conversations set up through the API. */
  quick = false;
  /** The page the next reply's model fetches (`fetch_url`) before it writes, when a path says so. */
  fetches: string | null = null;

  constructor(double: OpenAiDouble) {
    double.script((request) =>
      this.quick ? { chunks: ['Lighthouses ', 'guide ships.'] } : (this.toolCall(request) ?? this.held()),
    );
  }

  /** The model's call of the reply being written, held until the path lets it through. */
  private call: { made: boolean } | null = null;

  /**
   * The model's first turn of a reply that calls a tool: fetch_url, once the path lets the call through
   * (empty deltas keep the connection alive until then); its words come in the next turn.
   */
  private toolCall(request: ChatRequest): Script | null {
    const asked = request.messages.findLastIndex((message) => message.role === 'user');
    const answered = request.messages.slice(asked + 1).some((message) => message.role === 'tool');
    if (!this.fetches || answered) return null;
    const call = { made: false };
    this.call = call;
    const next = (): IteratorResult<string> =>
      call.made ? { done: true, value: undefined } : { done: false, value: '' };
    return {
      chunks: { [Symbol.iterator]: () => ({ next }) } as unknown as string[],
      delayMs: 20,
      toolCalls: [{ name: 'fetch_url', arguments: { url: this.fetches } }],
    };
  }

  /** Lets the model's call through, once the server has asked the model for the reply. */
  async makeCall() {
    const deadline = Date.now() + 15_000;
    while (!this.call) {
      if (Date.now() > deadline) throw new Error('the model was never asked for a reply that calls a tool');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    this.call.made = true;
    this.call = null;
  }

  /** The newest reply asked for. */
  latest(): HeldReply {
    const reply = this.replies.at(-1);
    if (!reply) throw new Error('no reply was asked of the model');
    return reply;
  }

  get count() {
    return this.replies.length;
  }

  /** The reply being written, once the server has asked the model for it (it does so after the message is in). */
  async open(): Promise<HeldReply> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const reply = this.replies.at(-1);
      if (reply?.end === 'open') return reply;
      if (Date.now() > deadline) throw new Error('no reply was asked of the model');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Ends the replies (and the call) an earlier path left waiting. */
  reset() {
    if (this.call) this.call.made = true;
    this.call = null;
    for (const reply of this.replies) if (reply.end === 'open') reply.end = 'done';
    this.replies = [];
  }

  private held(): Script {
    const reply: HeldReply = { allowed: 0, end: 'open' };
    this.replies.push(reply);
    let sent = 0;
    const next = (): IteratorResult<string> => {
      if (sent < reply.allowed) return { done: false, value: words[sent++ % words.length] };
      if (reply.end !== 'open') return { done: true, value: undefined };
      return { done: false, value: '' };
    };
    return {
      chunks: { [Symbol.iterator]: () => ({ next }) } as unknown as string[],
      delayMs: 20,
      get end() {
        return reply.end === 'drop' ? 'drop' : 'done';
      },
    };
  }
}

/** Reads a reply's server-sent events until one of `until` arrives, then leaves (the reply goes on). */
export async function readEvents(
  server: { url: string },
  token: string,
  path: string,
  body: unknown,
  until: string,
) {
  const leave = new AbortController();
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: leave.signal,
  });
  if (!response.ok || !response.body) throw new Error(`${path}: ${response.status}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes(`event: ${until}`)) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  leave.abort();
  return text;
}

/**
 * The network between the browser and the server, as a TCP relay: `cut` drops every connection open
 * now, as a lost network does (Chromium's offline mode leaves open streams alone).
 */
export async function startRelay(target: { port: number }) {
  const sockets = new Set<Socket>();
  const relay = createServer((client) => {
    const upstream = connect(target.port, '127.0.0.1');
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ]) {
      sockets.add(from);
      from.pipe(to);
      from.on('error', () => to.destroy());
      from.on('close', () => {
        sockets.delete(from);
        to.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const { port } = relay.address() as { port: number };
  return {
    url: `http://localhost:${port}`,
    cut: () => {
      for (const socket of sockets) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        relay.close(() => resolve());
      }),
  };
}
type Relay = Awaited<ReturnType<typeof startRelay>>;

/**
 * A web page the Assistant's `fetch_url` reads (the server may reach private addresses here), answered
 * only once a path says the tool is done: until then the tool runs, and its step shows it.
 */
export async function startHeldPage() {
  const waiting: (() => void)[] = [];
  let held = true;
  const server = createHttpServer((_request, response) => {
    const answer = () => {
      response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('Lighthouses guide ships at night.');
    };
    if (held) waiting.push(answer);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const release = () => {
    held = false;
    for (const answer of waiting.splice(0)) answer();
  };
  return {
    url: `http://127.0.0.1:${port}/lighthouses`,
    release,
    /** Holds the next fetch (a path's own); one an earlier path left waiting is answered. */
    hold: () => {
      release();
      held = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
type HeldPage = Awaited<ReturnType<typeof startHeldPage>>;

interface Account {
  server: RunningServer;
  token: string;
  /** The Assistant's id on that server: a bot answered by the OpenAI double. */
  assistant: string;
}

async function accountOn(server: RunningServer): Promise<Account> {
  const { token } = await signUp(server as unknown as TestServer);
  const bots = await call(server as unknown as TestServer, '/api/v1/bot', { token });
  const assistant = (bots.body as { _id: string; name: string }[]).find((bot) => bot.name === 'Assistant');
  if (!assistant) throw new Error('no Assistant bot: is OPENAI_BASE_URL set?');
  return { server, token, assistant: assistant._id };
}

const coded = (message: string, code: string) => Object.assign(new Error(message), { code });
const bot = { _id: 'assistant', name: 'Assistant' };
const message = (
  _id: string,
  parent: string | null,
  role: 'user' | 'bot',
  text: string,
  status = 'complete',
) => ({
  _id,
  parent,
  role,
  text,
  status,
});
/**
 * The conversation a path opens from the sidebar: a first message with two replies (the second on
 * screen; made only for the paths that switch versions), then a second message whose reply the
 * server is still writing.
 */
const openedTopic = {
  _id: 'opened',
  title: 'Tell me about lighthouses',
  bot,
  head: 'm5',
  messages: [
    message('m1', null, 'user', 'Tell me about lighthouses'),
    message('m2', 'm1', 'bot', 'Lighthouses guide ships.'),
    message('m3', 'm1', 'bot', 'Lighthouses guide ships.'),
    message('m4', 'm3', 'user', 'And their keepers?'),
    message('m5', 'm4', 'bot', 'One ', 'streaming'),
  ],
};
const sent = 'Count to ten';
const edited = 'Count to three';
const failure = {
  message: 'The model server stopped in the middle of the reply.',
  code: 'PROVIDER_INTERRUPTED',
};

/** The Assistant's tool: it fetches a page (held until the path lets it answer), and may ask first. */
const fetching = {
  callId: 'c1',
  tool: 'fetch_url',
  arguments: { url: 'page' },
  status: 'running',
  ms: 0,
};
const asking = { ...fetching, callId: 'c2', status: 'awaiting_approval' };
const step = (shown: object) => ({ type: 'STEP', botMessageId: 'm5', step: shown });
const fetched = step({ ...fetching, status: 'done', result: 'Lighthouses guide ships at night.', ms: 40 });
const askedFirst = step(asking);
const allowedFetch = step({ ...asking, status: 'done', result: 'Lighthouses guide ships at night.', ms: 40 });
const decided = (status: 'running' | 'denied') => ({
  type: 'xstate.done.actor.decideToolCall',
  output: { ...asking, status },
});
const toolEvents = ['STEP', 'APPROVE_TOOL', 'DENY_TOOL'];
/** The events of a reply after its message: a tool step, words, its end, or the connection lost. */
const replyEvents = ['STEP', 'TOKEN', 'DONE', 'FAILED', 'STOP', 'DISCONNECTED', 'NOT_STREAMING'];
/** Events that ask for a new reply (or more of one), or show another conversation's. */
const repliesAgain = ['SEND', 'EDIT', 'REGENERATE', 'CONTINUE', 'RETRY', 'OPEN'];
const isToolEvent = (event: ModelEvent) =>
  toolEvents.includes(event.type) || event.type.endsWith('decideToolCall');
/** The callId of a STEP event's step, and its status. */
const stepOf = (event: ModelEvent) => event.step as { callId: string; status: string } | undefined;

/** The part of a state's name that says how the reply streams, as before tools: `live.replying.waiting`. */
const streamOf = (name: string) => name.split(', ')[0].replace('live.stream.', 'live.');
/** The tool region's part of a state's name (`runningTool`, `awaitingApproval.choosing`…), or null out of `live`. */
const toolOf = (name: string) => name.split(', ')[1]?.replace('live.tool.', '') ?? null;

const checkBotFailed = { type: 'xstate.error.actor.checkBot', error: new Error('Could not load the bots') };
const unknownBot = {
  type: 'xstate.error.actor.checkBot',
  error: coded('This bot does not exist.', 'BOT_NOT_FOUND'),
};
const inactiveBot = {
  type: 'xstate.error.actor.createTopic',
  error: coded('This bot is not available right now.', 'BOT_INACTIVE'),
};
const insufficient = {
  type: 'FAILED',
  error: { message: 'Insufficient balance', code: 'INSUFFICIENT_BALANCE' },
};
const codeOf = (event: ModelEvent) => (event.error as { code?: string } | undefined)?.code;
const isEvent = (model: ModelEvent) => (event: ModelEvent) =>
  event.type === model.type && codeOf(event) === codeOf(model);

/** The requests of the invoked actors; `fails` is set per path (see `start`). */
const requests: Record<string, ActorRequest> = {
  checkBot: { method: 'GET', path: /^\/api\/v1\/bot$/ },
  createTopic: { method: 'POST', path: /^\/api\/v1\/topic$/ },
  loadTopic: { method: 'GET', path: /^\/api\/v1\/topic\/[^/]+$/ },
  stopReply: { method: 'POST', path: /^\/api\/v1\/topic\/[^/]+\/stop$/ },
  decideToolCall: { method: 'POST', path: /^\/api\/v1\/topic\/[^/]+\/tool-call\/[^/]+$/ },
};

/** What a path keeps between its steps. */
interface ChatWorld {
  account: Account;
  /** The state the last screen check saw (its stream's part): the state an event is performed in. */
  state: string;
  /** The tool region's state the last screen check saw. */
  tool: string | null;
  /** How the reply's tool call shows (`Running…`, `Done`, `Denied`…), once it called one. */
  toolShown: string | null;
  /** The message (or regenerate) request the app made, held until the path says the server takes it. */
  post?: Route;
  /** The last such request went through. */
  sentOut: boolean;
  /** The request following a reply, held until the path says what it answers. */
  follow?: Route;
  /** Requests that follow a reply fail at once (the connection is lost and stays lost). */
  cut: boolean;
  offline: boolean;
  /** Stop was pressed: its own calls go through (the first one is held by the runner). */
  stopping: boolean;
  stopCalls: number;
  /** Stop's call was lost on the network: the reply must be followed again, never shown stopped. */
  stopLost: boolean;
  /** The conversation opened from the sidebar, and its title there. */
  opened?: { id: string; title: string };
  /** What `ready` shows at the end of the branch. */
  end: 'reply' | 'stopped' | 'nothing' | 'versions';
  /** Words of the reply on screen so far (after `kept`). */
  written: number;
  /** What a reply asked to go on (Continue) showed before: its new words follow it. */
  kept: string;
  /** The first message of the new chat as typed (the model's text and this path's tag). */
  typed: string;
  /** The new chat's title in the sidebar, once its first message is stored. */
  listed?: string;
  /** The account's conversations when the path began. */
  conversations: number;
}

const chatOf = (world: PathWorld) => world.data as unknown as ChatWorld;
/** The text of the reply on screen: what it kept before going on, then the words written since. */
const shownText = (chat: ChatWorld) =>
  [chat.kept, words.slice(0, chat.written).join('').trim()].filter(Boolean).join(' ');
const main = (page: Page) => page.getByRole('main');
const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Conversations' });
const log = (page: Page) => page.getByRole('log');
const typing = (page: Page) => page.getByText('Assistant: Typing…');
// Busy while written; not while it waits for the user's Allow or Deny.
const liveReply = (page: Page) => log(page).locator('article[aria-busy]');
const toolStep = (page: Page, status: string) =>
  log(page).getByRole('button', { name: new RegExp(`^fetch_url ${status}`) });
const connectionLost = (page: Page) => page.getByText('Connection lost. The reply goes on; reconnecting…');

/** Lets a held request through, and waits for the server's answer to begin. */
async function release(page: Page, route: Route | undefined) {
  if (!route) return 0;
  const answered = page.waitForResponse((response) => response.request() === route.request());
  await route.continue();
  return (await answered).status();
}

async function goOffline(world: PathWorld, offline: boolean) {
  const chat = chatOf(world);
  if (chat.offline === offline) return;
  chat.offline = offline;
  await world.context.setOffline(offline);
}

/** The requests this model holds itself: the message sent, the reply followed, Stop's repeated calls. */
async function holdRequests(world: PathWorld) {
  const chat = chatOf(world);
  await world.page.route('**/api/v1/topic/**', async (route) => {
    const request = route.request();
    const { pathname } = new URL(request.url());
    const method = request.method();
    if (method === 'POST' && /\/message(\/[^/]+\/(regenerate|continue))?$/.test(pathname)) {
      chat.post = route;
      chat.sentOut = false;
      return;
    }
    if (method === 'GET' && pathname.endsWith('/stream')) {
      if (chat.cut) return route.abort('internetdisconnected');
      chat.follow = route;
      return;
    }
    if (method === 'POST' && pathname.endsWith('/stop')) {
      chat.stopCalls += 1;
      return chat.stopCalls === 1 ? route.fallback() : route.continue();
    }
    // Stop answers the topic as stored: its reading is part of stopping, not a load of its own.
    if (method === 'GET' && chat.stopping && requests.loadTopic.path.test(pathname)) return route.continue();
    return route.fallback();
  });
}

/** Waits for the app to make a request it makes on entering a state. */
async function madeBy(check: () => unknown, what: string) {
  for (let waited = 0; !check(); waited += 20) {
    if (waited >= 5000) throw new Error(`the app never made ${what} (waited 5 s)`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Lets the message the app sent reach the server, and waits for the server's answer to begin. */
async function letMessageIn(world: PathWorld) {
  const chat = chatOf(world);
  await madeBy(() => chat.post || chat.sentOut, 'the request sending the message');
  const route = chat.post;
  chat.post = undefined;
  chat.sentOut = true;
  // Stored, the new chat is listed in the sidebar, titled by its first message.
  if ((await release(world.page, route)) === 200 && !chat.opened) chat.listed = chat.typed;
}

/**
 * Lets the held request following the reply through (back online) with one more word, so the server
 * answers at once and the reply's end reaches the app. Says whether it let a word through.
 */
async function letFollowIn(world: PathWorld, replies: HeldReplies) {
  const chat = chatOf(world);
  await goOffline(world, false);
  chat.cut = false;
  if (chat.state !== 'live.attached.following')
    await madeBy(() => chat.follow, 'the request following the reply');
  const route = chat.follow;
  chat.follow = undefined;
  if (!route) return false;
  const answered = world.page.waitForResponse((response) => response.request() === route.request());
  await route.continue();
  replies.latest().allowed += 1;
  chat.written += 1;
  await answered;
  return true;
}

const topicIdOf = (page: Page) => new URL(page.url()).pathname.split('/').at(-1) as string;

/**
 * The conversation a path opens: made through the API before the page loads, its last reply held by
 * the double after its first word, stored so far as the page will load it.
 */
async function openableTopic(world: PathWorld, replies: HeldReplies) {
  const { server, token, assistant } = chatOf(world).account;
  const api = server as unknown as TestServer;
  const title = `Tell me about lighthouses ${randomUUID().slice(0, 8)}`;
  const topic = await call(api, '/api/v1/topic', { token, body: { bot: assistant } });
  const id = topic.body._id as string;
  replies.quick = true;
  try {
    await readEvents(server, token, `/api/v1/topic/${id}/message`, { text: title }, 'done');
    // Two versions of the first reply, for the paths that switch between them.
    if (world.events.some((event) => event.type === 'SHOW_SIBLING')) {
      const first = await call(api, `/api/v1/topic/${id}`, { token });
      const reply = (first.body.messages as { _id: string; role: string }[]).find(
        (item) => item.role === 'bot',
      );
      await readEvents(server, token, `/api/v1/topic/${id}/message/${reply?._id}/regenerate`, {}, 'done');
    }
  } finally {
    replies.quick = false;
  }
  const asked = replies.count;
  const reading = readEvents(
    server,
    token,
    `/api/v1/topic/${id}/message`,
    { text: 'And their keepers?' },
    'token',
  );
  while (replies.count === asked) await new Promise((resolve) => setTimeout(resolve, 10));
  replies.latest().allowed = 1;
  await reading;
  // Stored every half second: the page loads the reply as far as it is stored.
  for (;;) {
    const stored = await call(api, `/api/v1/topic/${id}`, { token });
    const writing = (stored.body.messages as { status: string; text: string }[]).find(
      (item) => item.status === 'streaming',
    );
    if (writing?.text) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { id, title };
}

/** Changes the Assistant as the organization's owner does in the admin area. */
async function changeAssistant(account: Account, changes: Record<string, unknown>) {
  const owner = await loginOwner(account.server as unknown as TestServer, 'app');
  const answer = await call(
    account.server as unknown as TestServer,
    `/api/v1/admin/bot/${account.assistant}`,
    { method: 'PATCH', tenant: 'app', token: owner.token, body: changes },
  );
  if (answer.status !== 200) throw new Error(`changing the Assistant failed: ${JSON.stringify(answer.body)}`);
}

/** Switches the Assistant on or off. */
const switchAssistant = (account: Account, active: boolean) => changeAssistant(account, { active });
/** Gives the Assistant fetch_url, which asks first or not. */
const giveFetch = (account: Account, askFirst: boolean) =>
  changeAssistant(account, { tools: ['fetch_url'], askFirst: askFirst ? ['fetch_url'] : [] });

const botCheckEnds = ['xstate.done.actor.checkBot', 'xstate.error.actor.checkBot'];
/**
 * What a person (and the model) can do in a state. A tool is called before the reply's first words,
 * once the message is stored, one call a reply: the model fetches a page, asking first or not. While a
 * tool is at work, only its events: it ends (the page answers), or the user answers the call; the
 * answer the server gives is the one they chose.
 */
function possible(snapshot: AnyMachineSnapshot, event: ModelEvent) {
  const name = stateName(snapshot);
  const tool = toolOf(name);
  const steps = streamingReply(snapshot.context)?.steps ?? [];
  const shown = stepOf(event);
  if (tool && tool !== 'noTool' && !isToolEvent(event)) return false;
  if (event.type === 'STEP' && shown?.status === 'done')
    return steps.some((step) => step.callId === shown.callId && step.status === 'running');
  if (event.type === 'STEP')
    return (
      streamOf(name) === 'live.replying.waiting' &&
      steps.length === 0 &&
      Boolean(streamingReply(snapshot.context))
    );
  if (event.type === 'xstate.done.actor.decideToolCall')
    return ((event.output as { status: string }).status === 'running') === snapshot.context.decision?.approve;
  return true;
}

/**
 * Paths the real world allows. An account that cannot pay has no conversation to open and never
 * sees a reply start; a bot unknown to the catalogue is never found; while detached no reply event
 * arrives; a reply being followed that ends is DONE, never NOT_STREAMING.
 */
function allows(path: ModelPath) {
  const events = path.steps.slice(1).map((step) => step.event);
  if (events.some(isEvent(insufficient)) && events.some((event) => ['OPEN', 'STORED'].includes(event.type)))
    return false;
  if (
    events.some(isEvent(unknownBot)) &&
    events.filter((event) => botCheckEnds.includes(event.type)).length > 1
  )
    return false;
  if (events.some(isEvent(unknownBot)) && events.some((event) => event.type === 'OPEN')) return false;
  // The Assistant's fetch asks first on a path or it does not: a path has one kind of tool call.
  const statuses = events.map((event) => stepOf(event)?.status);
  if (statuses.includes('running') && statuses.includes('awaiting_approval')) return false;
  return path.steps.slice(1).every((step, index) => {
    const before = streamOf(stateName(path.steps[index].state));
    if (before === 'live.detached' && ['DONE', 'FAILED'].includes(step.event.type)) return false;
    if (before === 'live.attached.following' && step.event.type === 'NOT_STREAMING') return false;
    return true;
  });
}

/**
 * The chat of one conversation, with the Assistant (answered by the OpenAI double, whose replies go
 * on only when the path says so), in a new chat at /topics/new?bot=ID or in a conversation opened
 * from the sidebar whose reply the server is still writing.
 */
export function topicBrowserModel({
  double,
  broke,
}: {
  double: OpenAiDouble;
  /** A server whose new accounts start with nothing. */
  broke: Promise<RunningServer>;
}): BrowserModel & { close: () => Promise<void> } {
  const replies = new HeldReplies(double);
  let relay: Relay;
  let heldPage: HeldPage;
  return {
    name: 'topic',
    // It holds and drops list, message and reply requests with routes of its own.
    ownRoutes: true,
    // The model's answer to loading a topic: one opened from the sidebar has a reply being written
    // (each path makes it so); loaded again after NOT_STREAMING, its reply has ended. A server refuses
    // a reply for the balance only before it starts, never one it is already writing.
    machine: topicMachine.provide({
      guards: {
        isStreaming: ({ context }) => context.topic === null,
        isInsufficientBalance: ({ context, event }) =>
          event.type === 'FAILED' &&
          event.error.code === 'INSUFFICIENT_BALANCE' &&
          !context.topic?.messages.some((item) => item.status === 'streaming'),
      },
    }),
    input: { botId: 'assistant', topicId: null },
    events: [
      { type: 'xstate.done.actor.checkBot' },
      checkBotFailed,
      unknownBot,
      { type: 'SEND', text: sent },
      {
        type: 'xstate.done.actor.createTopic',
        output: { _id: 'new', title: '', bot, head: null, messages: [] },
      },
      { type: 'xstate.error.actor.createTopic', error: new Error('Failed to fetch') },
      inactiveBot,
      { type: 'OPEN', topicId: 'opened', botId: null },
      { type: 'xstate.done.actor.loadTopic', output: openedTopic },
      { type: 'xstate.error.actor.loadTopic', error: new Error('Failed to fetch') },
      { type: 'RETRY' },
      { type: 'STORED', userMessageId: 'm4', botMessageId: 'm5', createdAt: '2026-01-01T00:00:00.000Z' },
      { type: 'TOKEN', text: 'two ' },
      {
        type: 'DONE',
        botMessageId: 'm5',
        cost: 0.05,
        balance: 999.95,
        createdAt: '2026-01-01T00:00:00.000Z',
      },
      { type: 'STOP' },
      {
        type: 'xstate.done.actor.stopReply',
        output: {
          ...openedTopic,
          messages: [...openedTopic.messages.slice(0, 4), { ...openedTopic.messages[4], status: 'stopped' }],
        },
      },
      { type: 'xstate.error.actor.stopReply', error: new Error('Failed to fetch') },
      { type: 'FAILED', error: failure, botMessageId: 'm5' },
      insufficient,
      { type: 'FAILED', error: { message: 'The reply was stopped.', code: 'STOPPED' }, botMessageId: 'm5' },
      { type: 'DISCONNECTED' },
      { type: 'NOT_STREAMING' },
      { type: 'ONLINE' },
      { type: 'xstate.after.reattachDelay.detached' },
      { type: 'EDIT', messageId: 'm4', text: edited },
      { type: 'REGENERATE', messageId: 'm5' },
      { type: 'CONTINUE', messageId: 'm5' },
      { type: 'SHOW_SIBLING', messageId: 'm2' },
      step(fetching),
      fetched,
      askedFirst,
      { type: 'APPROVE_TOOL', callId: 'c2' },
      { type: 'DENY_TOOL', callId: 'c2' },
      decided('running'),
      decided('denied'),
      { type: 'xstate.error.actor.decideToolCall', error: new Error('Failed to fetch') },
      allowedFetch,
    ],
    // The state, and for loading whether a conversation was on screen before (loaded again, its reply has ended).
    // A reply stored and not yet written is where the model calls its tool, and where it waits once the
    // tool has ended: states of their own here; so is the chat that ends with a reply stopped short,
    // the one Continue goes on with.
    serialize: (snapshot) => {
      if (snapshot.matches('loading')) return `loading, ${snapshot.context.topic ? 'again' : 'opened'}`;
      const last = snapshot.context.messages.at(-1);
      if (snapshot.matches('ready') && last?.role === 'bot' && last.status === 'stopped')
        return 'ready (stopped)';
      const reply = snapshot.matches({ live: { stream: { replying: 'waiting' } } })
        ? streamingReply(snapshot.context)
        : undefined;
      const ended = reply?.steps?.length && snapshot.matches({ live: { tool: 'noTool' } });
      return `${stateName(snapshot)}${reply ? ' (stored)' : ''}${ended ? ' (tool ended)' : ''}`;
    },
    possible,
    allows,
    requests,
    server: {
      OPENAI_BASE_URL: double.url,
      STARTING_BALANCE: '1000',
      SHUTDOWN_GRACE_SECONDS: '2',
      // fetch_url reads the held page on this machine.
      ALLOW_PRIVATE_PROVIDER_URLS: 'true',
    },

    close: async () => {
      await relay?.close();
      await heldPage?.close();
    },

    start: async (world) => {
      replies.reset();
      relay ??= await startRelay(world.server);
      heldPage ??= await startHeldPage();
      heldPage.hold();
      const { events, page, context } = world;
      const poor = events.some(isEvent(insufficient));
      const key = poor ? 'brokeAccount' : 'account';
      world.shared[key] ??= await accountOn(poor ? await broke : world.server);
      const account = world.shared[key] as Account;
      // A path that failed half-way may have left the Assistant switched off.
      if (world.shared.switchedOff) {
        await switchAssistant(world.shared.account as Account, true);
        world.shared.switchedOff = false;
      }
      // The Assistant may fetch a page; on the paths that answer the call, it asks first.
      const asks = events.some((event) => stepOf(event)?.status === 'awaiting_approval');
      if (!poor && world.shared.asksFirst !== asks) {
        await giveFetch(account, asks);
        world.shared.asksFirst = asks;
      }
      Object.assign(world.data, {
        account,
        state: 'checkingBot',
        tool: null,
        toolShown: null,
        cut: false,
        sentOut: false,
        offline: false,
        stopping: false,
        stopCalls: 0,
        stopLost: false,
        end: 'reply',
        written: 0,
        kept: '',
        typed: sent,
        conversations: (
          await call(account.server as unknown as TestServer, '/api/v1/topic', { token: account.token })
        ).body.length,
      } satisfies ChatWorld);
      // The server answers these with a refusal the app reads (an unknown or switched-off bot), else the network fails.
      requests.checkBot.fails = events.some(isEvent(unknownBot)) ? 'server' : 'network';
      requests.createTopic.fails = events.some(isEvent(inactiveBot)) ? 'server' : 'network';
      if (events.some((event) => event.type === 'OPEN'))
        chatOf(world).opened = await openableTopic(world, replies);
      await holdRequests(world);
      await context.addInitScript((token) => localStorage.setItem('token', token), account.token);
      const botId = events.some(isEvent(unknownBot)) ? randomUUID() : account.assistant;
      // Through the relay where the path loses the connection.
      const origin = events.some((event) => event.type === 'DISCONNECTED') ? relay.url : account.server.url;
      await page.goto(`${origin}/topics/new?bot=${botId}`);
    },

    perform: async (world, event, index) => {
      const { page } = world;
      const chat = chatOf(world);
      const before = chat.state;
      if (!['STOP', 'xstate.done.actor.stopReply', 'xstate.error.actor.stopReply'].includes(event.type))
        chat.stopping = false;
      const replying = before.startsWith('live.replying');
      // The model fetches its page when the reply's next event is a tool step; a new reply starts without one.
      const next = world.events.slice(index).find((later) => replyEvents.includes(later.type));
      replies.fetches = next?.type === 'STEP' ? heldPage.url : null;
      if (repliesAgain.includes(event.type)) chat.toolShown = null;
      // A reply that goes on keeps what it had (as far as the server kept it); any other starts from nothing.
      if (event.type === 'CONTINUE')
        chat.kept = ((await log(page).locator('.message.bot .markdown').last().textContent()) ?? '').trim();
      else if (repliesAgain.includes(event.type)) chat.kept = '';
      switch (event.type) {
        case 'STEP': {
          const shown = stepOf(event);
          if (shown?.status === 'done') {
            heldPage.release();
            chat.toolShown = 'Done';
          } else {
            if (replying) await letMessageIn(world);
            await replies.makeCall();
            chat.toolShown = shown?.status === 'running' ? 'Running…' : 'Waiting for your approval';
          }
          break;
        }
        case 'APPROVE_TOOL':
          await main(page).getByRole('button', { name: 'Allow', exact: true }).click();
          break;
        case 'DENY_TOOL':
          await main(page).getByRole('button', { name: 'Deny', exact: true }).click();
          break;
        case 'xstate.done.actor.decideToolCall':
          // (The runner let the answer through.) Allowed, the fetch runs until the page answers.
          chat.toolShown = (event.output as { status: string }).status === 'running' ? 'Running…' : 'Denied';
          break;
        case 'SEND': {
          if (isEvent(inactiveBot)(world.events[index + 1] ?? { type: '' })) {
            await switchAssistant(chat.account, false);
            world.shared.switchedOff = true;
          }
          chat.typed = `${event.text} ${randomUUID().slice(0, 8)}`;
          await page.getByLabel('Message').fill(chat.typed);
          await page.getByLabel('Message').press('Enter');
          chat.written = 0;
          chat.sentOut = false;
          break;
        }
        case 'xstate.done.actor.createTopic':
          chat.sentOut = false;
          break;
        case 'xstate.error.actor.createTopic':
          if (world.shared.switchedOff) {
            await switchAssistant(chat.account, true);
            world.shared.switchedOff = false;
          }
          break;
        case 'OPEN':
          // On a phone the conversations are in the drawer (choosing one closes it).
          if (world.viewport.name === 'phone')
            await page.getByRole('button', { name: 'Conversations', exact: true }).click();
          await sidebar(page)
            .getByRole('link', { name: new RegExp(chat.opened?.title ?? '') })
            .click();
          chat.written = 1;
          break;
        case 'RETRY':
          await main(page).getByRole('button', { name: 'Retry' }).click();
          chat.written = 0;
          chat.sentOut = false;
          break;
        case 'STORED':
          await letMessageIn(world);
          break;
        case 'TOKEN':
          if (replying) await letMessageIn(world);
          if (replying || !(await letFollowIn(world, replies))) {
            (await replies.open()).allowed += 1;
            chat.written += 1;
          }
          break;
        case 'DONE':
          if (replying) await letMessageIn(world);
          else await letFollowIn(world, replies);
          {
            const reply = await replies.open();
            reply.allowed = Math.max(reply.allowed, 3);
            reply.end = 'done';
          }
          chat.written = 3;
          chat.end = 'reply';
          break;
        case 'FAILED':
          if (codeOf(event) === 'INSUFFICIENT_BALANCE') {
            await letMessageIn(world);
            break;
          }
          if (replying) await letMessageIn(world);
          else await letFollowIn(world, replies);
          if (codeOf(event) === 'STOPPED') {
            // Stopped in another tab of the same account.
            const answer = await call(
              chat.account.server as unknown as TestServer,
              `/api/v1/topic/${topicIdOf(page)}/stop`,
              {
                token: chat.account.token,
                body: {},
              },
            );
            expect(answer.body.stopped).toBe(true);
            chat.end = chat.written ? 'stopped' : 'nothing';
          } else replies.latest().end = 'drop';
          break;
        case 'STOP':
          chat.stopping = true;
          chat.stopCalls = 0;
          chat.end = chat.written ? 'stopped' : 'nothing';
          await main(page).getByRole('button', { name: 'Stop' }).click();
          // Stopped while the connection was lost: Stop's own call goes out once it is back.
          chat.cut = false;
          await goOffline(world, false);
          break;
        case 'xstate.error.actor.stopReply':
          // (The runner aborted the stop's call.) The server goes on writing: the app follows it again.
          chat.stopLost = true;
          chat.end = 'reply';
          break;
        case 'DISCONNECTED':
          // The connection is lost once the server took the message: the reply goes on there.
          if (replying) {
            await letMessageIn(world);
            await log(page).locator('.message.user time').last().waitFor();
          }
          chat.cut = true;
          await goOffline(world, true);
          relay.cut();
          await chat.follow?.abort('internetdisconnected');
          chat.follow = undefined;
          break;
        case 'ONLINE':
          chat.cut = false;
          await goOffline(world, false);
          break;
        case 'xstate.after.reattachDelay.detached':
          // Still offline: the next attempt to follow the reply is held, so it is seen.
          chat.cut = false;
          break;
        case 'NOT_STREAMING': {
          // The reply ends while nobody follows it; then the app asks for it again.
          replies.latest().end = 'done';
          replies.latest().allowed = 3;
          const { server, token } = chat.account;
          for (;;) {
            const stored = await call(server as unknown as TestServer, `/api/v1/topic/${topicIdOf(page)}`, {
              token,
            });
            if (!(stored.body.messages as { status: string }[]).some((item) => item.status === 'streaming'))
              break;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          chat.written = 3;
          chat.end = 'reply';
          const route = chat.follow;
          chat.follow = undefined;
          await goOffline(world, false);
          chat.cut = false;
          await route?.continue();
          break;
        }
        case 'EDIT': {
          const last = log(page).locator('.message.user').last();
          await last.getByRole('button', { name: 'Edit' }).click();
          await page.getByLabel('Edit message').fill(event.text as string);
          await page.getByRole('button', { name: 'Save and send' }).click();
          chat.written = 0;
          chat.sentOut = false;
          break;
        }
        case 'REGENERATE':
          await log(page).locator('.message.bot').last().getByRole('button', { name: 'Regenerate' }).click();
          chat.written = 0;
          chat.sentOut = false;
          break;
        case 'CONTINUE':
          await log(page).getByRole('button', { name: 'Continue', exact: true }).click();
          chat.written = 0;
          chat.sentOut = false;
          chat.end = 'reply';
          break;
        case 'SHOW_SIBLING':
          await log(page).getByRole('button', { name: 'Previous version' }).first().click();
          chat.end = 'versions';
          break;
      }
    },

    expectScreen: async (world, snapshot: AnyMachineSnapshot) => {
      const { page } = world;
      const chat = chatOf(world);
      const state = streamOf(stateName(snapshot));
      const tool = toolOf(stateName(snapshot));
      chat.state = state;
      chat.tool = tool;
      const button = (name: string) => main(page).getByRole('button', { name, exact: true });
      const shows = async (locator: ReturnType<Page['getByText']>, count: number) => {
        const shown = await locator.count();
        if (shown !== count)
          expect(shown, `${locator} on ${(await main(page).innerText()).slice(0, 300)}`).toBe(count);
      };
      const alert = main(page).getByRole('alert');
      switch (state) {
        case 'checkingBot':
        case 'loading':
          // The chat's own Loading… under its header, not the login check's page before it.
          if (state === 'checkingBot') await shows(main(page).getByRole('heading', { name: 'New chat' }), 1);
          await shows(main(page).getByRole('status').filter({ hasText: 'Loading…' }), 1);
          await shows(page.getByLabel('Message'), 0);
          return;
        case 'draft':
          await shows(main(page).getByRole('heading', { name: 'Assistant', level: 2 }), 1);
          expect(await page.getByLabel('Message').isEnabled()).toBe(true);
          await shows(log(page), 0);
          await shows(main(page).getByRole('heading', { name: 'Try one of these' }), 1);
          expect(new URL(page.url()).pathname).toBe('/topics/new');
          // No empty conversations: opening a bot creates nothing.
          expect(
            (
              await call(chat.account.server as unknown as TestServer, '/api/v1/topic', {
                token: chat.account.token,
              })
            ).body,
          ).toHaveLength(chat.conversations);
          return;
        case 'botUnavailable':
          expect(await alert.textContent()).toMatch(/This bot (does not exist|is not available right now)\./);
          await shows(alert.getByRole('link', { name: 'Choose a bot' }), 1);
          await shows(button('Retry'), 0);
          return;
        case 'unavailable':
          await shows(alert, 1);
          await shows(button('Retry'), 1);
          await shows(page.getByLabel('Message'), 0);
          return;
        case 'creationFailed':
          await shows(alert.getByRole('button', { name: 'Retry' }), 1);
          await shows(log(page).getByText(chat.typed), 1);
          await shows(button('Send'), 1);
          return;
        case 'insufficientBalance':
          expect(await alert.textContent()).toMatch(/^Insufficient balance.*Your balance: €0\.00/);
          await shows(alert.getByRole('button', { name: 'Retry' }), 1);
          expect(await page.getByLabel('Message').isDisabled()).toBe(true);
          // Nothing was stored: a conversation without a message is not listed.
          await shows(sidebar(page).getByRole('link', { name: new RegExp(chat.typed) }), 0);
          return;
      }
      // A reply is asked for, written, followed or stopped: Stop stands where Send was.
      const busy = state === 'creating' || state.startsWith('live') || state === 'stopping';
      await shows(button('Stop'), busy ? 1 : 0);
      await shows(button('Send'), busy ? 0 : 1);
      // Until its first words, the bot types; a tool step it calls shows in their place.
      const waiting = state === 'creating' || (state === 'live.replying.waiting' && !chat.toolShown);
      await shows(typing(page), waiting ? 1 : 0);
      // A reply that goes on shows what it had while the bot types the rest, once the server took it up;
      // until then it shows as it ended, with no Continue. While Stop is on its way, the reply shows as
      // far as it got.
      const continuing = snapshot.context.request?.kind === 'continue';
      const takenUp = continuing && streamingReply(snapshot.context) !== undefined;
      const writing =
        (state.startsWith('live.') && (!waiting || takenUp)) ||
        (state === 'stopping' && snapshot.context.draft !== '');
      const text = shownText(chat);
      await shows(liveReply(page), writing ? 1 : 0);
      await shows(connectionLost(page), state === 'live.detached' ? 1 : 0);
      if (writing && text) expect(await liveReply(page).textContent()).toContain(text);
      if (continuing && !takenUp && state.startsWith('live.')) {
        const ended = log(page).locator('article.message.bot').last();
        await shows(ended.getByText('Stopped'), 1);
        expect(await ended.textContent()).toContain(text);
        await shows(log(page).getByRole('button', { name: 'Continue' }), 0);
      }
      if (state === 'creating') await shows(log(page).getByText(chat.typed), 1);
      // On a phone the list is in the closed drawer, out of sight.
      if (chat.listed && !chat.offline && world.viewport.name === 'desktop')
        await shows(sidebar(page).getByRole('link', { name: new RegExp(chat.listed) }), 1);
      // Created, the conversation has its own address.
      expect(new URL(page.url()).pathname).toMatch(
        state === 'creating' ? /^\/topics\/new$/ : /^\/topics\/[0-9a-f-]{36}$/,
      );
      if (state === 'stopping') await shows(log(page).getByText('Stopped'), 0);
      // The reply's tool call: running, waiting for the user's Allow or Deny (on its way, or failed), or ended.
      const allow = main(page).getByRole('button', { name: 'Allow', exact: true });
      const deny = main(page).getByRole('button', { name: 'Deny', exact: true });
      const asked = tool?.startsWith('awaitingApproval') ?? false;
      await shows(allow, asked ? 1 : 0);
      await shows(deny, asked ? 1 : 0);
      if (asked) {
        await shows(liveReply(page).getByRole('heading', { name: 'Allow this tool to run? fetch_url' }), 1);
        await shows(liveReply(page).getByText('"url": "http://127.0.0.1:', { exact: false }), 1);
        const deciding = tool === 'awaitingApproval.deciding';
        expect(await allow.isEnabled()).toBe(!deciding);
        expect(await deny.isEnabled()).toBe(!deciding);
        await shows(liveReply(page).getByText('Sending your answer…'), deciding ? 1 : 0);
        await shows(
          liveReply(page).getByRole('alert').filter({ hasText: 'Cannot reach the server' }),
          tool === 'awaitingApproval.decisionFailed' ? 1 : 0,
        );
      }
      if (tool === 'runningTool') await shows(toolStep(page, 'Running…'), 1);
      if (chat.toolShown && !asked && (tool !== null || state === 'ready'))
        await shows(toolStep(page, chat.toolShown), 1);
      // After a stop lost on the network, the reply is still being written, and Stop can be pressed again.
      if (chat.stopLost && writing) {
        await shows(liveReply(page).getByText('Stopped'), 0);
        expect(await button('Stop').isEnabled()).toBe(true);
      }
      if (state === 'replyFailed') {
        expect(await alert.textContent()).toContain(failure.message);
        await shows(alert.getByRole('button', { name: 'Retry' }), 1);
        await shows(log(page).getByText('Failed', { exact: true }), chat.written ? 1 : 0);
      }
      if (state === 'ready') {
        await shows(alert, 0);
        const lastReply = log(page).locator('.message.bot').last();
        if (chat.end === 'reply') expect(await lastReply.textContent()).toContain(shownText(chat));
        if (chat.end === 'stopped') {
          await shows(lastReply.getByText('Stopped'), 1);
          await shows(log(page).getByRole('button', { name: 'Continue' }), 1);
        }
        if (chat.end === 'versions') expect(await log(page).getByText('1 / 2').count()).toBeGreaterThan(0);
      }
    },
  };
}
