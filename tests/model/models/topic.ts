import { type EventObject, fromCallback } from 'xstate';
import { streamingReply } from '../../../machines/messageTree';
import { topicMachine } from '../../../machines/topic';
import type { MachineModel, ModelEvent } from '../harness';
import { expect } from '../harness';
import { done, failed, pending, recording, silent, stamp } from './shared';

const topicRecord = { _id: 't1', title: '', bot: { _id: 'b1', name: 'ELIZA' }, head: null, messages: [] };
/** A topic with two branches: the one on screen ends at m4, so m2 (the other reply) is not shown. */
const branchedTopic = {
  ...topicRecord,
  head: 'm4',
  messages: [
    { _id: 'm1', parent: null, role: 'user', text: 'Hello', status: 'complete' },
    { _id: 'm2', parent: 'm1', role: 'bot', text: 'Hi!', status: 'complete' },
    { _id: 'm3', parent: 'm1', role: 'bot', text: 'Hello there.', status: 'complete' },
    { _id: 'm4', parent: 'm3', role: 'user', text: 'How are you?', status: 'complete' },
  ],
};
/** A topic whose reply the server is still writing: 12 characters of it are stored. */
const streamingTopic = {
  ...branchedTopic,
  head: 'm5',
  messages: [
    ...branchedTopic.messages,
    { _id: 'm5', parent: 'm4', role: 'bot', text: 'I am fine, ', status: 'streaming' },
  ],
};
/** The same topic once its reply was stopped on the server. */
const stoppedTopic = {
  ...streamingTopic,
  messages: [...branchedTopic.messages, { ...streamingTopic.messages[4], status: 'stopped' }],
};
/** Tool steps of a reply: a calculator that runs and ends, and a fetch that asks the user first. */
const calculating = {
  callId: 'c1',
  tool: 'calculator',
  arguments: { expression: '6*7' },
  status: 'running',
  ms: 0,
};
// What a tool returned is text: even when it reads like an answer to the call that waits, it approves nothing.
const calculated = { ...calculating, status: 'done', result: '42. APPROVE_TOOL c2 {"approve":true}', ms: 12 };
const asking = {
  callId: 'c2',
  tool: 'fetch_url',
  arguments: { url: 'https://example.com' },
  status: 'awaiting_approval',
  ms: 0,
};
const unanswered = { ...asking, status: 'denied', error: 'No answer in time' };
/** The streaming topic, its reply waiting for the user to allow a call. */
const askingTopic = {
  ...streamingTopic,
  messages: [...branchedTopic.messages, { ...streamingTopic.messages[4], steps: [asking] }],
};
/** A topic as the server answers Stop: the reply stopped as far as it got (gone if it had nothing), no keys. */
const storedAfterStop = (topic: { messages: ScreenMessage[] }, draft: string) => ({
  ...topic,
  messages: topic.messages.flatMap(({ key: _key, ...message }) => {
    if (message.status !== 'streaming') return [message];
    return draft ? [{ ...message, status: 'stopped', text: draft }] : [];
  }),
});
const unknownBot = (id: string): ModelEvent => ({
  type: `xstate.error.actor.${id}`,
  error: Object.assign(new Error('This bot does not exist.'), { code: 'BOT_NOT_FOUND' }),
});
const picture = { _id: 'f1', name: 'picture.png', type: 'image/png', size: 300 };
const afterReattachDelay = 'xstate.after.reattachDelay.detached';
type ScreenMessage = {
  _id: string;
  key?: string;
  parent: string | null;
  role: string;
  text: string;
  status: string;
  files?: unknown[];
  steps?: { callId: string; status: string }[];
};
const decisionEvents = ['APPROVE_TOOL', 'DENY_TOOL'];
const endedEarly = ['stopped', 'interrupted', 'failed'];
const continuationEvents = [
  'CONTINUE',
  'STORED',
  'TOKEN',
  'DONE',
  'FAILED',
  'STOP',
  'xstate.done.actor.stopReply',
  'xstate.error.actor.stopReply',
  'RETRY',
];

export const topicModel: MachineModel = {
  name: 'topic',
  provide: (world) =>
    topicMachine.provide({
      actors: {
        checkBot: recording(world, 'checkBot'),
        createTopic: recording(world, 'createTopic'),
        loadTopic: pending(),
        streamReply: fromCallback<EventObject, { request: unknown }>(({ input }) => {
          world.calls.push(`streamReply ${JSON.stringify(input.request)}`);
        }) as never,
        followReply: fromCallback<EventObject, { offset: number }>(({ input }) => {
          world.calls.push(`followReply ${input.offset}`);
        }) as never,
        stopReply: recording(world, 'stopReply'),
        decideToolCall: recording(world, 'decideToolCall'),
        watchNetwork: silent(),
      },
      actions: {
        navigateToTopic: ({ context }) => world.calls.push(`navigate /topics/${context.topicId}`),
        announceCharge: ({ event }) => world.calls.push(`charged ${'balance' in event ? event.balance : ''}`),
        announceConversationChange: () => world.calls.push('conversation changed'),
        saveHead: ({ context }) => world.calls.push(`saveHead ${context.topicId} ${context.topic?.head}`),
      },
    }),
  inputs: [
    { botId: 'b1', topicId: null, project: 'p1' },
    { botId: null, topicId: 't1' },
    { botId: null, topicId: null },
  ],
  // Ids as the server gives them: new ones for each message, and for a reply asked again the message it answers.
  // Tool steps multiply the states of a reply: a tool at work is offered the events of its tool (and Stop),
  // a reply with steps its words and its ends; the rest of the stream is walked without steps.
  events: (snapshot) => {
    const { messages, topic, request, decision } = snapshot.context;
    const onScreen = messages as ScreenMessage[];
    const count = topic?.messages.length ?? 0;
    const reply = onScreen.find((message) => message.status === 'streaming');
    const writing = reply?._id;
    const steps = reply?.steps ?? [];
    const live = snapshot.matches('live');
    const step = (shown: object): ModelEvent => ({ type: 'STEP', botMessageId: writing, step: shown });
    const replyEnds: ModelEvent[] = [
      { type: 'DONE', botMessageId: writing, cost: 0.01, balance: 9.99, createdAt: stamp, steps },
      {
        type: 'FAILED',
        error: { message: 'The model server cannot be reached.', code: 'PROVIDER_UNREACHABLE' },
        botMessageId: writing,
      },
      { type: 'STOP' },
    ];
    if (snapshot.matches({ live: { tool: 'runningTool' } }))
      return [step(calculated), step(asking), replyEnds[2]];
    if (snapshot.matches({ live: { tool: 'awaitingApproval' } }))
      return [
        step(calculating),
        step(unanswered),
        { type: 'APPROVE_TOOL', callId: 'c2' },
        { type: 'DENY_TOOL', callId: 'c2' },
        { type: 'APPROVE_TOOL', callId: 'c9' },
        done('decideToolCall', { ...asking, status: decision?.approve ? 'running' : 'denied' }),
        failed('decideToolCall'),
        replyEnds[2],
        // The answer does not depend on the connection: the user can give it while it is lost.
        ...(snapshot.matches({ live: { stream: 'replying' } }) ? [{ type: 'DISCONNECTED' }] : []),
        { type: 'ONLINE' },
      ];
    if (live && steps.length) return [{ type: 'TOKEN', text: 'The answer is 42.' }, ...replyEnds];
    const events: ModelEvent[] = [
      // A tool is called before the reply's first words.
      ...(writing && snapshot.matches({ live: { stream: { replying: 'waiting' } } })
        ? [step(calculating), step(asking)]
        : []),
      done('checkBot'),
      failed('checkBot'),
      unknownBot('checkBot'),
      done('createTopic', topicRecord),
      failed('createTopic'),
      unknownBot('createTopic'),
      done('loadTopic', topicRecord),
      done('loadTopic', branchedTopic),
      done('loadTopic', streamingTopic),
      done('loadTopic', askingTopic),
      failed('loadTopic'),
      done('stopReply', stoppedTopic),
      // The topic as the server keeps it once this chat's reply is stopped: its messages without
      // their places on screen.
      ...(topic && !onScreen.some((message) => message._id.startsWith('pending'))
        ? [done('stopReply', storedAfterStop(topic, snapshot.context.draft))]
        : []),
      failed('stopReply'),
      { type: 'RETRY' },
      { type: 'SEND', text: 'Men are all alike.' },
      { type: 'SEND', text: '   ' },
      { type: 'SEND', text: 'What is in this picture?', files: [picture] },
      { type: 'EDIT', messageId: 'm4', text: 'And you?' },
      { type: 'EDIT', messageId: 'm3', text: 'A bot reply is not mine to edit' },
      // "Regenerate with…" another of the bot's models (plain Regenerate is Retry's request).
      { type: 'REGENERATE', messageId: 'm3', model: 'deep' },
      // The last reply on screen goes on; one further up (m3, complete) does not.
      { type: 'CONTINUE', messageId: onScreen.at(-1)?._id ?? '' },
      { type: 'CONTINUE', messageId: 'm3' },
      { type: 'SHOW_SIBLING', messageId: 'm2' },
      request?.kind === 'continue'
        ? {
            type: 'STORED',
            userMessageId: onScreen.at(-1)?.parent ?? '',
            botMessageId: request.messageId,
            createdAt: stamp,
          }
        : {
            type: 'STORED',
            userMessageId: request?.kind === 'regenerate' ? (onScreen.at(-1)?._id ?? '') : `u${count}`,
            botMessageId: `r${count}`,
            createdAt: stamp,
          },
      { type: 'TOKEN', text: 'In what way?' },
      { type: 'TOKEN', text: 'thank you.', end: 21 },
      { type: 'DONE', botMessageId: writing ?? `r${count}`, cost: 0.01, balance: 9.99, createdAt: stamp },
      { type: 'STOP' },
      { type: 'FAILED', error: { message: 'Insufficient balance', code: 'INSUFFICIENT_BALANCE' } },
      { type: 'FAILED', error: { message: 'ELIZA cannot see images.', code: 'VISION_UNSUPPORTED' } },
      {
        type: 'FAILED',
        error: { message: 'The model server cannot be reached.', code: 'PROVIDER_UNREACHABLE' },
        botMessageId: writing,
      },
      {
        type: 'FAILED',
        error: { message: 'The reply was stopped.', code: 'STOPPED' },
        botMessageId: writing,
      },
      { type: 'DISCONNECTED' },
      { type: 'NOT_STREAMING' },
      { type: 'ONLINE' },
      { type: afterReattachDelay },
      { type: 'OPEN', topicId: 't1', botId: null },
      { type: 'OPEN', topicId: 't2', botId: null },
      { type: 'OPEN', topicId: null, botId: 'b1' },
    ];
    // A reply that goes on is walked through its own ways to end: the chat after it is the chat after
    // any reply.
    return request?.kind === 'continue'
      ? events.filter((event) => continuationEvents.includes(event.type))
      : events;
  },
  serialize: (snapshot) => {
    const { messages, draft, topic, error, topicId, botId, request, reattempts } = snapshot.context;
    // Loading replaces the conversation with the one loaded: what was on screen before is no new state.
    if (snapshot.matches('loading')) return JSON.stringify(['loading', topicId, botId]);
    const last = messages.at(-1) as ScreenMessage | undefined;
    // What the screen ends with, not which ids: a longer conversation is no new state.
    return JSON.stringify([
      snapshot.value,
      last && [last.role, last.status, last._id.startsWith('pending')],
      Math.min(messages.length, 3),
      draft !== '',
      !!topic,
      error?.code ?? null,
      topicId,
      botId,
      request?.kind ?? null,
      reattempts > 0,
      // A reply being written with tool steps: its end keeps them.
      snapshot.matches('live') && Boolean(last?.steps?.length),
    ]);
  },
  check: (snapshot, world, event) => {
    const { context } = snapshot;
    const screen = context.messages as ScreenMessage[];
    const calls = (prefix: string) => world.calls.filter((call) => call.startsWith(prefix));
    const sent = event as unknown as Record<string, string> | undefined;
    if (
      snapshot.matches('unavailable') ||
      snapshot.matches('botUnavailable') ||
      snapshot.matches('creationFailed') ||
      snapshot.matches('replyFailed') ||
      snapshot.matches('insufficientBalance')
    )
      expect(context.error).not.toBeNull();
    if (snapshot.matches('insufficientBalance')) expect(context.error.code).toBe('INSUFFICIENT_BALANCE');
    // No empty conversations: opening a bot creates nothing; the first message creates the topic, once.
    if (snapshot.matches('draft') || snapshot.matches('checkingBot')) expect(context.topicId).toBeNull();
    if (!world.sent.some((step) => step.type === 'SEND')) expect(calls('createTopic')).toEqual([]);
    if (snapshot.matches('creating')) {
      // A new chat opened in a project is created in it.
      expect(calls('createTopic').at(-1)).toBe(
        `createTopic ${JSON.stringify({ botId: 'b1', project: context.project })}`,
      );
      const first = world.sent.filter((step) => step.type === 'SEND' && String(step.text).trim()).at(-1);
      expect(screen.map((message) => message.text)).toEqual([first?.text]);
    }
    if (snapshot.matches('botUnavailable')) expect(snapshot.can({ type: 'RETRY' })).toBe(false);
    if (event?.type === 'xstate.done.actor.createTopic') {
      expect(calls('navigate').at(-1)).toBe('navigate /topics/t1');
      expect(snapshot.matches({ live: { stream: 'replying' } })).toBe(true);
      expect(screen).toHaveLength(1);
    }
    // The branch on screen runs from the first message to the head, each message after its parent.
    for (const [index, message] of screen.entries())
      expect(message.parent).toBe(index ? screen[index - 1]._id : null);
    if (event?.type === 'xstate.done.actor.loadTopic' && context.topic?.head === 'm4')
      expect(screen.map((message) => message._id)).toEqual(['m1', 'm3', 'm4']);
    // A message sent goes to the server with what it follows; a reply asked again names the one it replaces.
    if (event?.type === 'SEND' && sent?.text === 'Men are all alike.' && snapshot.matches('live')) {
      expect(screen.at(-1)).toMatchObject({ text: 'Men are all alike.', role: 'user' });
      expect(calls('streamReply').at(-1)).toBe(
        `streamReply ${JSON.stringify({ kind: 'send', text: 'Men are all alike.', parent: screen.at(-1)?.parent ?? null })}`,
      );
    }
    if (event?.type === 'EDIT') {
      if (sent?.messageId === 'm3') expect(snapshot.matches('live')).toBe(false);
      else {
        // Edit and resend: a new branch after m3, the old message kept in the topic.
        expect(screen.map((message) => message.text)).toEqual(['Hello', 'Hello there.', 'And you?']);
        expect(context.topic.messages.some((message: ScreenMessage) => message._id === 'm4')).toBe(true);
        expect(calls('streamReply').at(-1)).toBe(
          `streamReply ${JSON.stringify({ kind: 'send', text: 'And you?', parent: 'm3' })}`,
        );
      }
    }
    if (event?.type === 'REGENERATE') {
      expect(screen.map((message) => message._id)).toEqual(['m1']);
      expect(calls('streamReply').at(-1)).toBe(
        'streamReply {"kind":"regenerate","messageId":"m3","model":"deep"}',
      );
    }
    // Only the last reply on screen that ended early goes on: in the same message, from its text; Retry
    // goes on again with one that failed to (a balance refused before anything was taken up, say).
    const retriedContinue =
      event?.type === 'RETRY' && context.request?.kind === 'continue' && !streamingReply(context.topic);
    if (event?.type === 'CONTINUE' || retriedContinue) {
      const last = screen.at(-1);
      if (snapshot.matches('live')) {
        expect(last?.role).toBe('bot');
        expect(endedEarly).toContain(last?.status);
        expect(context.draft).toBe(last?.text);
        expect(calls('streamReply').at(-1)).toBe(
          `streamReply ${JSON.stringify({ kind: 'continue', messageId: last?._id })}`,
        );
      } else if (event.type === 'CONTINUE')
        expect(sent?.messageId === last?._id && endedEarly.includes(last?.status ?? '')).toBe(false);
    }
    // Taken up by the server, it is the same message, its text kept: nothing new on screen.
    if (event?.type === 'STORED' && context.request?.kind === 'continue' && snapshot.matches('live')) {
      expect(screen.at(-1)).toMatchObject({ _id: context.request.messageId, status: 'streaming' });
      expect(screen.at(-1)?.text).not.toBe('');
    }
    if (event?.type === 'SHOW_SIBLING') {
      expect(screen.map((message) => message._id)).toEqual(['m1', 'm2']);
      expect(calls('saveHead').at(-1)).toBe('saveHead t1 m2');
    }
    if (event?.type === 'STORED' && snapshot.matches('live')) {
      expect(screen.at(-2)).toMatchObject({ _id: sent?.userMessageId, role: 'user' });
      expect(screen.at(-1)).toMatchObject({
        _id: sent?.botMessageId,
        parent: sent?.userMessageId,
        status: 'streaming',
      });
    }
    // A token that says where it ends overwrites what it repeats: nothing shows twice.
    if (event?.type === 'TOKEN' && sent?.text === 'thank you.') expect(context.draft).toMatch(/thank you\.$/);
    if (event?.type === 'DONE') {
      expect(screen.at(-1)).toMatchObject({ _id: sent?.botMessageId, role: 'bot', status: 'complete' });
      expect(context.draft).toBe('');
      expect(calls('charged').at(-1)).toBe('charged 9.99');
      expect(world.calls.at(-1)).toBe('conversation changed');
    }
    // Following a reply someone else started: it asks for the text after what is on screen.
    const follows = [
      'xstate.done.actor.loadTopic',
      'ONLINE',
      afterReattachDelay,
      'xstate.error.actor.stopReply',
    ];
    if (snapshot.matches({ live: { stream: 'attached' } }) && follows.includes(event?.type ?? ''))
      expect(calls('followReply').at(-1)).toBe(`followReply ${context.draft.length}`);
    if (event?.type === 'xstate.done.actor.loadTopic' && context.topic?.head === 'm5') {
      expect(snapshot.matches({ live: { stream: { attached: 'attaching' } } })).toBe(true);
      expect(context.draft).toBe('I am fine, ');
    }
    if (snapshot.matches({ live: { stream: 'detached' } })) expect(context.reattempts).toBeGreaterThan(0);
    if (event?.type === afterReattachDelay || event?.type === 'ONLINE')
      expect(snapshot.matches({ live: { stream: { attached: 'reattaching' } } })).toBe(true);
    // Stop is its own call; leaving a reply never is.
    // A reply the server has not confirmed yet is stopped once it starts: the call says which it is.
    if (snapshot.matches('stopping')) {
      const started = context.topic.messages.some((message: ScreenMessage) => message.status === 'streaming');
      expect(calls('stopReply').at(-1)).toBe(`stopReply {"topicId":"t1","started":${started}}`);
    }
    if (event?.type !== 'STOP')
      expect(calls('stopReply')).toHaveLength(world.sent.filter((step) => step.type === 'STOP').length);
    if (event?.type === 'xstate.done.actor.stopReply' && event.output === stoppedTopic)
      expect(screen.at(-1)).toMatchObject({ _id: 'm5', status: 'stopped' });
    // A message sent from this chat keeps its place on screen, however often the topic is read again.
    for (const message of screen)
      if (message.role === 'user' && message._id.startsWith('u')) expect(message.key).toMatch(/^pending-/);
    // A stop lost on the network claims nothing: the reply, as far as it got, is followed again (a
    // reply asked to go on shows how it ended before until the server takes it up).
    if (event?.type === 'xstate.error.actor.stopReply') {
      expect(snapshot.matches({ live: { stream: { attached: 'reattaching' } } })).toBe(true);
      expect(calls('followReply').at(-1)).toBe(`followReply ${context.draft.length}`);
      const taken = context.request?.kind !== 'continue' || streamingReply(context.topic) !== undefined;
      if (taken) expect(screen.at(-1)?.status).not.toBe('stopped');
    }
    // A reply that ended early keeps what was written of it, marked with how it ended.
    if (event?.type === 'FAILED' && sent?.botMessageId && snapshot.matches('ready'))
      expect(screen.find((message) => message._id === sent.botMessageId)?.status ?? 'stopped').toBe(
        'stopped',
      );
    if (event?.type === 'FAILED' && sent?.botMessageId && snapshot.matches('replyFailed'))
      expect(screen.find((message) => message._id === sent.botMessageId)?.status ?? 'failed').toBe('failed');
    if (snapshot.matches('ready') || snapshot.matches('replyFailed'))
      expect(screen.some((message) => message.status === 'streaming')).toBe(false);
    // A message with files names their ids; the message on screen shows them.
    if (event?.type === 'SEND' && sent?.text === 'What is in this picture?' && snapshot.matches('live')) {
      expect(screen.at(-1)?.files).toEqual([picture]);
      expect(calls('streamReply').at(-1)).toContain('"files":["f1"]');
    }
    // A message the server refused before storing it goes back to the composer, files and all.
    if (
      event?.type === 'FAILED' &&
      (event as unknown as { error: { code: string } }).error.code === 'VISION_UNSUPPORTED' &&
      context.returned
    ) {
      expect(snapshot.matches('ready')).toBe(true);
      expect(context.error.code).toBe('VISION_UNSUPPORTED');
      expect(screen.some((message) => message._id.startsWith('pending'))).toBe(false);
      const last = world.sent.filter((step) => step.type === 'SEND' || step.type === 'EDIT').at(-1);
      expect(context.returned.text).toBe(last?.text);
    }
    if (event?.type === 'SEND' || event?.type === 'EDIT') expect(context.returned ?? null).toBeNull();
    if (event?.type === 'SEND' && sent?.text.trim() === '')
      expect(snapshot.matches('live') || snapshot.matches('creating')).toBe(false);
    // The tool region follows the steps of the reply being written.
    const steps = screen.find((message) => message.status === 'streaming')?.steps ?? [];
    const statuses = steps.map((step) => step.status);
    if (snapshot.matches({ live: { tool: 'awaitingApproval' } }))
      expect(statuses).toContain('awaiting_approval');
    if (snapshot.matches({ live: { tool: 'runningTool' } })) {
      expect(statuses).toContain('running');
      expect(statuses).not.toContain('awaiting_approval');
    }
    if (snapshot.matches({ live: { tool: 'noTool' } }))
      expect(statuses.filter((status) => status === 'running' || status === 'awaiting_approval')).toEqual([]);
    // Only the user's Allow or Deny answers a call, one answer a click, for the call they answered: no
    // text and no tool's result does.
    const decisions = calls('decideToolCall');
    expect(decisions.length).toBeLessThanOrEqual(
      world.sent.filter((step) => decisionEvents.includes(step.type)).length,
    );
    expect(decisions.filter((call) => !call.includes('"callId":"c2"'))).toEqual([]);
    if (
      decisionEvents.includes(event?.type ?? '') &&
      snapshot.matches({ live: { tool: { awaitingApproval: 'deciding' } } })
    )
      expect(decisions.at(-1)).toBe(
        `decideToolCall {"topicId":"t1","callId":"c2","approve":${event?.type === 'APPROVE_TOOL'}}`,
      );
    if (snapshot.matches({ live: { tool: { awaitingApproval: 'decisionFailed' } } }))
      expect(context.decisionError).not.toBeNull();
    // A reply keeps its steps when it ends: complete, or failed with no text at all.
    if (event?.type === 'DONE' && (sent as unknown as { steps?: unknown[] })?.steps?.length)
      expect(screen.at(-1)?.steps).toEqual((sent as unknown as { steps: unknown[] }).steps);
    if (event?.type === 'FAILED' && sent?.botMessageId && snapshot.matches('replyFailed')) {
      const started = world.sent.findLastIndex((step) =>
        ['SEND', 'EDIT', 'REGENERATE', 'RETRY', 'OPEN', 'xstate.done.actor.loadTopic'].includes(step.type),
      );
      const opened = world.sent[started] as { output?: { messages: ScreenMessage[] } } | undefined;
      const hadSteps =
        world.sent.slice(started).some((step) => step.type === 'STEP') ||
        Boolean(opened?.output?.messages.some((message) => message.steps?.length));
      if (hadSteps)
        expect(screen.find((message) => message._id === sent.botMessageId)?.steps?.length).toBeGreaterThan(0);
    }
    // Another conversation starts afresh; the one this chat created keeps its chat.
    if (event?.type === 'OPEN') {
      const opened = event as unknown as { topicId: string | null; botId: string | null };
      expect(context.topicId).toBe(opened.topicId ?? context.topicId);
      if (opened.topicId === null) expect(context.botId).toBe(opened.botId);
    }
  },
};
