import { constants, publicEncrypt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { type Config, loadConfig } from '../../server/config';
import { seededDataDir } from './dataTemplate';
import { readCode } from './outbox';

export interface TestServer {
  app: FastifyInstance;
  url: string;
  dataDir: string;
  config: Config;
  close: () => Promise<void>;
}

/** The real app on a fresh data folder (or a given one), listening on a free loopback port. */
export async function startApp(env: Record<string, string> = {}, keepDataDir?: string): Promise<TestServer> {
  const dataDir =
    keepDataDir ??
    (env.DATABASE_URL
      ? mkdtempSync(join(tmpdir(), 'parley-server-'))
      : await seededDataDir('parley-server-'));
  const config = loadConfig({
    STATIC_DIR: '',
    BUILTIN_TOKEN_DELAY_MS: '0',
    RATE_LIMIT_OTP_PER_IP_PER_HOUR: '10000',
    RATE_LIMIT_API_PER_MINUTE: '100000',
    ...env,
    DATA_DIR: dataDir,
  });
  const app = await buildApp({ config, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    dataDir,
    config,
    close: async () => {
      await app.close();
      if (!keepDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// biome-ignore lint/suspicious/noExplicitAny: answers are checked by the tests' assertions, not by types
export type Json = any;

export interface CallOptions {
  method?: string;
  body?: unknown;
  token?: string;
  tenant?: string;
  signal?: AbortSignal;
  /** More request headers, e.g. X-Forwarded-For. */
  headers?: Record<string, string>;
  /** The Host header, as a browser on that host name sends it (fetch cannot set it). */
  host?: string;
}

/** A request with a Host header of our choosing, over node:http. */
function requestWithHost(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
  host: string,
) {
  return new Promise<Response>((resolve, reject) => {
    const sent = request(url, { method: init.method, headers: { ...init.headers, host } }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () =>
        resolve(
          new Response(Buffer.concat(chunks), {
            status: incoming.statusCode,
            headers: incoming.headers as Record<string, string>,
          }),
        ),
      );
    });
    sent.on('error', reject);
    sent.end(init.body);
  });
}

/** One HTTP call as the web app makes it: JSON, Authorization and Organization headers. */
export async function call(server: TestServer, path: string, options: CallOptions = {}) {
  const init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal } = {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.tenant ? { organization: options.tenant } : {}),
      ...options.headers,
    },
    body:
      options.body === undefined
        ? undefined
        : typeof options.body === 'string'
          ? options.body
          : JSON.stringify(options.body),
    signal: options.signal,
  };
  const response = options.host
    ? await requestWithHost(`${server.url}${path}`, init, options.host)
    : await fetch(`${server.url}${path}`, init);
  const text = await response.text();
  let json: Json = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return {
    status: response.status,
    headers: response.headers,
    body: json,
  };
}

/** Encrypts a field as the web app does: RSA-OAEP with SHA-256 over the UTF-8 bytes, base64. */
export async function encrypter(server: TestServer) {
  const { body } = await call(server, '/auth/public-key');
  const key = body.key as string;
  return (value: string) =>
    publicEncrypt(
      { key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(value, 'utf8'),
    ).toString('base64');
}

let tags = 0;
/**
 * A tag nobody has used on this server: the time and a counter; for the state gallery the counter
 * alone, so the names on its pictures are the same in every run (each test file has its own server).
 */
export function uniqueTag(): string {
  tags += 1;
  return process.env.GALLERY ? `t${tags.toString(36).padStart(4, '0')}` : `${Date.now().toString(36)}${tags}`;
}

/** A new user through the real flow: code mailed to the outbox, read back, signup. */
export async function signUp(
  server: TestServer,
  tenant = 'app',
  overrides: Partial<{ email: string; username: string; password: string }> = {},
) {
  const unique = uniqueTag();
  const user = {
    email: overrides.email ?? `user${unique}@example.org`,
    username: overrides.username ?? `user${unique}`,
    password: overrides.password ?? 'correct horse battery',
    displayName: `User ${unique}`,
  };
  const encrypt = await encrypter(server);
  const otpAnswer = await call(server, '/auth/otp', { tenant, body: { email: encrypt(user.email) } });
  if (otpAnswer.status !== 200) throw new Error(`otp failed: ${JSON.stringify(otpAnswer.body)}`);
  const otp = await readCode(server.dataDir, user.email);
  const answer = await call(server, '/auth/signup', {
    tenant,
    body: { ...user, email: encrypt(user.email), password: encrypt(user.password), otp },
  });
  if (answer.status !== 200) throw new Error(`signup failed: ${JSON.stringify(answer.body)}`);
  const token = answer.body.token as string;
  const me = await call(server, '/api/v1/user/me', { tenant, token });
  return { ...user, tenant, token, id: me.body._id as string, encrypt };
}

/** The ids of an organization's bots by name, as a new user of it sees them. */
export async function botIds(server: TestServer, tenant = 'app'): Promise<Record<string, string>> {
  const user = await signUp(server, tenant);
  const list = await call(server, '/api/v1/bot', { token: user.token, tenant });
  return Object.fromEntries(list.body.map((bot: { name: string; _id: string }) => [bot.name, bot._id]));
}

/**
 * Sends a message to a topic as the web app does (`POST …/message`, the member's token and organization):
 * the raw response, a reply's event stream or a refusal's JSON, for the caller to read.
 */
export function postMessage(
  server: TestServer,
  user: { token?: string; tenant?: string },
  topic: string,
  body: Record<string, unknown>,
) {
  return fetch(`${server.url}/api/v1/topic/${topic}/message`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${user.token}`,
      organization: user.tenant ?? 'app',
    },
    body: JSON.stringify(body),
  });
}
