// @vitest-environment node
import { constants, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEncryptorLoader } from '../../../src/api/encryptor';
import { createHttpClient, HttpError, type Method, swapAppSubdomain } from '../../../src/api/http';

interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A remote that records what the client sends and answers what each test scripts. */
const { publicKey, privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const decrypt = (value: string) =>
  privateDecrypt(
    { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(value, 'base64'),
  ).toString('utf8');

let server: Server;
let origin: string;
let recorded: Recorded[];
let answer: { status: number; body: unknown; type?: string };
let keyRequests = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      if (request.url === '/auth/public-key') {
        keyRequests += 1;
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ key: publicKey }));
        return;
      }
      recorded.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      response.statusCode = answer.status;
      response.setHeader('content-type', answer.type ?? 'application/json');
      response.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

let token: string | null;
let organization: string | null;
let unauthorized: Method[];

function client() {
  const http = createHttpClient({
    baseURL: origin,
    getToken: () => token,
    getOrganization: () => organization,
    getHost: () => 'localhost',
    onUnauthorized: (method) => unauthorized.push(method),
    loadEncrypt: createEncryptorLoader(async () => (await http.get<{ key: string }>('/auth/public-key')).key),
  });
  return http;
}

beforeEach(() => {
  recorded = [];
  answer = { status: 200, body: { ok: true } };
  token = null;
  organization = null;
  unauthorized = [];
});

describe('headers', () => {
  it('sends the bearer token and the organization when they exist', async () => {
    token = 'abc.def.ghi';
    organization = 'acme';
    await client().get('/api/v1/bot');
    expect(recorded[0].headers.authorization).toBe('Bearer abc.def.ghi');
    expect(recorded[0].headers.organization).toBe('acme');
  });

  it('sends neither header when there is no token and no organization', async () => {
    await client().get('/api/v1/bot');
    expect(recorded[0].headers.authorization).toBeUndefined();
    expect(recorded[0].headers.organization).toBeUndefined();
  });
});

describe('GET', () => {
  it('encodes query parameters in the url and leaves out undefined ones', async () => {
    await client().get('/api/v1/topic', { q: 'a b&c', page: 2, missing: undefined });
    expect(recorded[0].url).toBe('/api/v1/topic?q=a+b%26c&page=2');
  });

  it('reports a 401 as a GET so the session sends the user to landing', async () => {
    answer = { status: 401, body: { error: 'Session expired', code: 'UNAUTHORIZED' } };
    await expect(client().get('/api/v1/user/me')).rejects.toMatchObject({
      status: 401,
      message: 'Session expired',
    });
    expect(unauthorized).toEqual(['GET']);
  });
});

describe('POST', () => {
  it('answers { success: false } on error unless the caller asks for the error', async () => {
    answer = { status: 400, body: { error: 'Invalid or expired code', code: 'OTP_INVALID' } };
    expect(await client().post('/auth/otp', { topic: 'x' })).toEqual({ success: false });
    const failure = client().post('/auth/otp', { topic: 'x' }, { returnError: true });
    await expect(failure).rejects.toBeInstanceOf(HttpError);
    await expect(failure).rejects.toMatchObject({
      status: 400,
      code: 'OTP_INVALID',
      message: 'Invalid or expired code',
    });
  });

  it('does not treat a 401 on POST as a session end (a wrong password is not a logout)', async () => {
    answer = { status: 401, body: { error: 'Invalid email or password', code: 'INVALID_CREDENTIALS' } };
    await client().post('/auth/login', { topic: 'x' });
    expect(unauthorized).toEqual([]);
  });

  it('encrypts the password and the personal fields of a JSON body, RSA-OAEP over UTF-8', async () => {
    const body = {
      email: 'zoë@example.com',
      password: 'pässwörd ✓',
      name: 'Zoë',
      address: '1 Rue',
      postalCode: '75001',
      city: 'Paris',
      taxNo: 'FR123',
      username: 'zoe',
    };
    await client().post('/auth/signup', body);
    const sent = JSON.parse(recorded[0].body);
    for (const field of ['email', 'password', 'name', 'address', 'postalCode', 'city', 'taxNo'] as const) {
      expect(sent[field]).not.toBe(body[field]);
      expect(decrypt(sent[field])).toBe(body[field]);
    }
    expect(sent.username).toBe('zoe');
    expect(body.password).toBe('pässwörd ✓');
  });

  it('fetches the public key once for many encrypted bodies', async () => {
    const http = client();
    const before = keyRequests;
    await http.post('/auth/login', { email: 'a@b.co', password: 'one' });
    await http.post('/auth/login', { email: 'a@b.co', password: 'two' });
    expect(keyRequests - before).toBe(1);
  });

  it('in a multipart body encrypts the password only and leaves the other fields untouched', async () => {
    const form = new FormData();
    form.append('password', 'secret-pass');
    form.append('email', 'plain@example.com');
    await client().post('/upload', form);
    const text = recorded[0].body;
    expect(recorded[0].headers['content-type']).toMatch(/^multipart\/form-data/);
    expect(text).toContain('plain@example.com');
    expect(text).not.toContain('secret-pass');
    const password = /name="password"\r\n\r\n([^\r]+)\r\n/.exec(text)?.[1] ?? '';
    expect(decrypt(password)).toBe('secret-pass');
  });

  it('refuses a value too long to encrypt instead of sending it in clear', async () => {
    const failure = client().post(
      '/auth/login',
      { email: 'a@b.co', password: 'x'.repeat(191) },
      { returnError: true },
    );
    await expect(failure).rejects.toMatchObject({ code: 'ENCRYPTION_FAILED' });
    expect(recorded).toHaveLength(0);
  });
});

describe('PUT', () => {
  it("maps the reply 'OK' to { success: true }", async () => {
    answer = { status: 200, body: 'OK', type: 'text/plain' };
    expect(await client().put('/api/v1/thing', { value: 1 })).toEqual({ success: true });
  });

  it('maps any other reply, an error included, to { success: false }', async () => {
    answer = { status: 200, body: { done: true } };
    expect(await client().put('/api/v1/thing', { value: 1 })).toEqual({ success: false });
    answer = { status: 500, body: { error: 'Boom', code: 'X' } };
    expect(await client().put('/api/v1/thing', { value: 1 })).toEqual({ success: false });
  });
});

describe('PATCH and DELETE', () => {
  it('returns a 500 on PATCH to the caller as an error with the server text', async () => {
    answer = { status: 500, body: { error: 'Could not save', code: 'INTERNAL' } };
    await expect(client().patch('/api/v1/topic/1', { title: 'x' })).rejects.toMatchObject({
      status: 500,
      message: 'Could not save',
    });
    expect(unauthorized).toEqual([]);
  });

  it('reports a 401 on PATCH and on DELETE with their method (the session sends the user to welcome)', async () => {
    answer = { status: 401, body: { error: 'Session expired', code: 'UNAUTHORIZED' } };
    await expect(client().patch('/api/v1/topic/1', { title: 'x' })).rejects.toBeInstanceOf(HttpError);
    await expect(client().delete('/api/v1/topic/1')).rejects.toBeInstanceOf(HttpError);
    expect(unauthorized).toEqual(['PATCH', 'DELETE']);
  });

  it('sends DELETE with its query', async () => {
    await client().delete('/api/v1/topic/1', { hard: true });
    expect(recorded[0]).toMatchObject({ method: 'DELETE', url: '/api/v1/topic/1?hard=true', body: '' });
  });

  it('sends DELETE with a JSON body beside its query, the password encrypted', async () => {
    await client().delete('/api/v1/user/me', { reason: 'done' }, { password: 'pässwörd' });
    expect(recorded[0]).toMatchObject({ method: 'DELETE', url: '/api/v1/user/me?reason=done' });
    expect(recorded[0].headers['content-type']).toBe('application/json');
    expect(decrypt(JSON.parse(recorded[0].body).password)).toBe('pässwörd');
  });

  it('hands the caller the form field a refusal is about', async () => {
    answer = {
      status: 409,
      body: { error: 'This username is taken.', code: 'USERNAME_TAKEN', field: 'username' },
    };
    await expect(client().patch('/api/v1/user/me', { username: 'ada' })).rejects.toMatchObject({
      status: 409,
      code: 'USERNAME_TAKEN',
      field: 'username',
      message: 'This username is taken.',
    });
    answer = { status: 400, body: { error: 'Bad', code: 'X' } };
    await expect(client().patch('/api/v1/user/me', { username: 'ada' })).rejects.toMatchObject({
      field: undefined,
    });
  });
});

describe('network failures and streams', () => {
  it('gives a readable message when the server cannot be reached', async () => {
    const offline = createHttpClient({
      baseURL: 'http://127.0.0.1:9',
      getToken: () => null,
      getOrganization: () => null,
      getHost: () => 'localhost',
      onUnauthorized: () => {},
      loadEncrypt: async () => (value) => value,
    });
    await expect(offline.get('/health')).rejects.toMatchObject({ status: 0, code: 'NETWORK' });
  });

  it('reads the error of a refused stream, such as 402 Insufficient balance', async () => {
    answer = { status: 402, body: { error: 'Insufficient balance', code: 'INSUFFICIENT_BALANCE' } };
    const stream = client().stream('/api/v1/topic/1/message', { text: 'hi' }, new AbortController().signal);
    await expect(stream).rejects.toMatchObject({ status: 402, code: 'INSUFFICIENT_BALANCE' });
  });

  it('hands back the event stream of a successful reply', async () => {
    answer = { status: 200, body: 'event: token\ndata: {"text":"Hi"}\n\n', type: 'text/event-stream' };
    const stream = await client().stream(
      '/api/v1/topic/1/message',
      { text: 'hi' },
      new AbortController().signal,
    );
    expect(await new Response(stream).text()).toContain('event: token');
  });
});

describe('country subdomain swap', () => {
  it('replaces the app subdomain of the host with the country of the body', () => {
    expect(swapAppSubdomain('/api/v1/address', 'app.parley.example', 'DE')).toBe(
      'https://de.parley.example/api/v1/address',
    );
  });

  it('leaves other hosts, foreign urls and odd countries alone', () => {
    expect(swapAppSubdomain('/api/v1/address', 'acme.parley.example', 'de')).toBe('/api/v1/address');
    expect(swapAppSubdomain('https://other.example/x', 'app.parley.example', 'de')).toBe(
      'https://other.example/x',
    );
    expect(swapAppSubdomain('/x', 'app.parley.example', 'de.evil.com/')).toBe('/x');
    expect(swapAppSubdomain('/x', 'app.parley.example', undefined)).toBe('/x');
  });
});
