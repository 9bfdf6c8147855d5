import OpenAI from 'openai';
import { expect } from 'vitest';
import { call, type Json, postMessage, type signUp, type TestServer } from '../../support/app';
import { readEvents, type ServerSentEvent } from '../../support/sse';
import { admin, loginOwner } from '../admin/support';

export type User = Awaited<ReturnType<typeof signUp>>;

/** Sets a bot's tools (and those that ask first) as an admin of `tenant` does. */
export async function giveTools(
  server: TestServer,
  tenant: string,
  botId: string,
  tools: string[],
  askFirst: string[] = [],
) {
  const owner = await loginOwner(server, tenant);
  const answer = await admin(server, owner, `/bot/${botId}`, { method: 'PATCH', body: { tools, askFirst } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body).toMatchObject({ tools, askFirst });
}

export async function newTopic(server: TestServer, user: User, botId: string): Promise<string> {
  const answer = await call(server, '/api/v1/topic', {
    token: user.token,
    tenant: user.tenant,
    body: { bot: botId },
  });
  expect(answer.status).toBe(201);
  return answer.body._id;
}

/**
 * Sends a message and reads the reply's events to its end; `onEvent` hears each as it comes (e.g. to
 * answer an "ask first" call, or to stop the reply).
 */
export async function say(
  server: TestServer,
  user: User,
  topic: string,
  text: string,
  onEvent: (event: ServerSentEvent) => void = () => {},
): Promise<ServerSentEvent[]> {
  const response = await postMessage(server, user, topic, { text });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  return readEvents(response, onEvent);
}

/** The steps of the step events, in order: each as it was sent. */
export const stepEvents = (events: ServerSentEvent[]) =>
  events.filter((event) => event.event === 'step').map((event) => event.data.step as Json);

export async function readTopic(server: TestServer, user: User, topic: string) {
  const answer = await call(server, `/api/v1/topic/${topic}`, { token: user.token, tenant: user.tenant });
  expect(answer.status).toBe(200);
  return answer.body as Json;
}

/** The text of a reply's `token` events, joined. */
export const replyText = (events: ServerSentEvent[]) =>
  events
    .filter((event) => event.event === 'token')
    .map((event) => event.data.text)
    .join('');

/** The user's balance, what is reserved, and the transactions (charges are negative amounts). */
export async function billing(server: TestServer, user: User) {
  const answer = await call(server, `/payment/billing-info/${user.id}`, {
    token: user.token,
    tenant: user.tenant,
  });
  return answer.body as { balance: number; reserved: number; transactions: Json[] };
}

/** A new personal API key of `user` through the web app's route (its name RSA-encrypted, spec §7). */
export async function newKey(server: TestServer, user: User, name = 'script', expiresAt?: string) {
  const answer = await call(server, '/api/v1/user/me/key', {
    token: user.token,
    tenant: user.tenant,
    body: { name: user.encrypt(name), ...(expiresAt ? { expiresAt } : {}) },
  });
  expect(answer.status).toBe(200);
  return answer.body as { _id: string; key: string };
}

/** The official `openai` client against Parley's OpenAI-compatible API, with a personal key. */
export const openAiClient = (server: TestServer, apiKey: string) =>
  new OpenAI({ apiKey, baseURL: `${server.url}/v1`, maxRetries: 0 });

/** Answers an "ask first" call as the topic's owner does. */
export const answerCall = (server: TestServer, user: User, topic: string, callId: string, approve: boolean) =>
  call(server, `/api/v1/topic/${topic}/tool-call/${callId}`, {
    token: user.token,
    tenant: user.tenant,
    body: { approve },
  });
