import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type Json, signUp, startApp, type TestServer } from '../support/app';
import { type OpenAiDouble, startOpenAiDouble } from '../support/openai-double';
import { silenceWav as wav } from '../support/wav';
import { type Actor, admin, loginOwner } from './admin/support';

/** The start of a WebM file (EBML header, DocType "webm"), as MediaRecorder writes it in Chromium. */
const webm = Buffer.concat([
  Buffer.from('1a45dfa39f4286810142f7810142f2810442f381084282847765626d42878104428581021853806701', 'hex'),
  Buffer.alloc(2000, 1),
]);

async function transcribe(
  server: TestServer,
  user: { token: string; tenant: string },
  file: Buffer,
  name = 'a',
) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), name);
  const response = await fetch(`${server.url}/api/v1/audio/transcriptions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}`, organization: user.tenant },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Json };
}

async function speak(server: TestServer, user: { token: string; tenant: string }, body: unknown) {
  const response = await fetch(`${server.url}/api/v1/audio/speech`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${user.token}`,
      organization: user.tenant,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const type = response.headers.get('content-type') ?? '';
  return {
    status: response.status,
    type,
    bytes,
    body: type.includes('json') ? JSON.parse(bytes.toString()) : null,
  };
}

describe('voice: transcription and speech through the organization’s provider', () => {
  let server: TestServer;
  let double: OpenAiDouble;
  let acmeOwner: Actor;
  let appOwner: Actor;

  const money = async (id: string) => {
    const { rows } = await server.app.db.query<{ balance: string; reserved: string }>(
      'select balance, reserved from users where id = $1',
      [id],
    );
    return { balance: Number(rows[0].balance), reserved: Number(rows[0].reserved) };
  };
  const setBalance = (id: string, balance: number) =>
    server.app.db.query('update users set balance = $2 where id = $1', [id, balance]);
  const configure = (owner: Actor, speech: Record<string, unknown>) =>
    admin(server, owner, '/settings', { method: 'PATCH', body: { speech } });

  beforeAll(async () => {
    double = await startOpenAiDouble();
    server = await startApp({
      OPENAI_BASE_URL: double.url,
      OPENAI_API_KEY: 'sk-server-key',
      ALLOW_PRIVATE_PROVIDER_URLS: 'true',
      AUDIO_TIMEOUT_SECONDS: '1',
    });
    [acmeOwner, appOwner] = await Promise.all([loginOwner(server, 'acme'), loginOwner(server, 'app')]);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await double?.close();
  });

  it('is off, with a clear 409, until the admins name a model; the app is told', async () => {
    const user = await signUp(server, 'acme');
    expect((await call(server, '/api/v1/organization/acme')).body.voice).toEqual({
      transcription: false,
      speech: false,
      voices: [],
    });
    expect(await transcribe(server, user, wav(1))).toMatchObject({
      status: 409,
      body: { code: 'TRANSCRIPTION_OFF' },
    });
    expect(await speak(server, user, { text: 'Hello' })).toMatchObject({
      status: 409,
      body: { code: 'SPEECH_OFF' },
    });
    expect(double.audio.transcriptions.length + double.audio.speeches.length).toBe(0);
  });

  it('checks the admin’s speech settings, naming what is wrong, and audits the change', async () => {
    for (const [speech, field] of [
      [{ provider: 'no-such-provider' }, 'speech.provider'],
      [{ speechModel: 'tts-1', voices: [] }, 'speech.voices'],
      [{ voices: ['not a voice'] }, 'speech'],
      [{ transcriptionPrice: -1 }, 'speech'],
      [{ transcriptionModel: ' ' }, 'speech'],
    ] as const) {
      const answer = await configure(acmeOwner, speech);
      expect(answer.status, JSON.stringify(speech)).toBe(400);
      expect(answer.body.field).toBe(field);
      expect(answer.body.error).toEqual(expect.any(String));
    }
    const saved = await configure(acmeOwner, {
      transcriptionModel: 'whisper-1',
      speechModel: 'tts-1',
      voices: ['alloy', 'nova'],
      transcriptionPrice: 0.3,
      speechPrice: 0.6,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.speech).toEqual({
      transcriptionModel: 'whisper-1',
      speechModel: 'tts-1',
      voices: ['alloy', 'nova'],
      provider: null,
      transcriptionPrice: 0.3,
      speechPrice: 0.6,
    });
    const audit = (await admin(server, acmeOwner, '/audit?limit=5')).body.items;
    expect(audit[0]).toMatchObject({
      action: 'settings.update',
      after: { speech: { speechModel: 'tts-1' } },
    });
    expect((await call(server, '/api/v1/organization/acme')).body.voice).toEqual({
      transcription: true,
      speech: true,
      voices: ['alloy', 'nova'],
    });
  });

  it('transcribes a recording, priced by its minutes: a WAV by its own length, others by the provider’s', async () => {
    const user = await signUp(server, 'acme');
    await setBalance(user.id, 5);
    expect(await transcribe(server, user, wav(2))).toEqual({
      status: 200,
      body: { text: 'Hello from the microphone' },
    });
    expect(double.audio.transcriptions.at(-1)).toMatchObject({
      model: 'whisper-1',
      responseFormat: 'verbose_json',
      fileName: 'recording.wav',
      size: 44 + 16000,
      authorization: 'Bearer sk-server-key',
    });
    // 2 s at 0.30 a minute.
    expect(await money(user.id)).toEqual({ balance: 4.99, reserved: 0 });
    double.audio.script({ duration: 30, text: ' Thirty seconds. ' });
    expect(await transcribe(server, user, webm)).toEqual({ status: 200, body: { text: 'Thirty seconds.' } });
    expect(double.audio.transcriptions.at(-1)?.fileName).toBe('recording.webm');
    expect(await money(user.id)).toEqual({ balance: 4.84, reserved: 0 });
    const billing = await call(server, `/payment/billing-info/${user.id}`, {
      token: user.token,
      tenant: 'acme',
    });
    expect(billing.body.transactions.map((t: Json) => [t.amount, t.description])).toEqual(
      expect.arrayContaining([
        [-0.01, 'Transcription'],
        [-0.15, 'Transcription'],
      ]),
    );
    double.audio.script({});
  });

  it('refuses bad, empty, too big, too long and unknown audio with a clear 4xx, nothing charged', async () => {
    const user = await signUp(server, 'acme');
    await setBalance(user.id, 5);
    const asked = double.audio.transcriptions.length;
    const refusals: [Buffer, number, string][] = [
      [Buffer.alloc(0), 400, 'EMPTY_AUDIO'],
      [Buffer.from('just some text, not a recording'), 415, 'UNSUPPORTED_AUDIO'],
      [Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n'), 415, 'UNSUPPORTED_AUDIO'],
      [wav(601), 413, 'AUDIO_TOO_LONG'],
      [Buffer.concat([wav(1).subarray(0, 12), Buffer.from('junk')]), 422, 'UNREADABLE_AUDIO'],
      [Buffer.alloc(25 * 1024 * 1024 + 1, 1), 413, 'FILE_TOO_LARGE'],
    ];
    for (const [bytes, status, code] of refusals) {
      const answer = await transcribe(server, user, bytes);
      expect(answer, code).toMatchObject({ status, body: { code, field: 'file' } });
      expect(answer.body.error).toMatch(/\w/);
    }
    const json = await call(server, '/api/v1/audio/transcriptions', {
      token: user.token,
      tenant: 'acme',
      body: { file: 'x' },
    });
    expect(json).toMatchObject({ status: 415, body: { code: 'INVALID_MEDIA_TYPE' } });
    expect(double.audio.transcriptions.length).toBe(asked);
    // Longer than 10 minutes by the provider's measure: refused, and free.
    double.audio.script({ duration: 700 });
    expect(await transcribe(server, user, webm)).toMatchObject({
      status: 413,
      body: { code: 'AUDIO_TOO_LONG' },
    });
    // The provider failing or hanging costs nothing either.
    double.audio.script({ status: 500 });
    expect(await transcribe(server, user, wav(1))).toMatchObject({
      status: 502,
      body: { code: 'PROVIDER_ERROR' },
    });
    double.audio.script({ delayMs: 1500 });
    expect(await transcribe(server, user, wav(1))).toMatchObject({
      status: 504,
      body: { code: 'PROVIDER_TIMEOUT' },
    });
    double.audio.script({});
    expect(await money(user.id)).toEqual({ balance: 5, reserved: 0 });
    // A recording of unknown length holds the longest (10 minutes, 3.00 here): less is refused before the provider.
    await setBalance(user.id, 2.99);
    expect(await transcribe(server, user, webm)).toMatchObject({
      status: 402,
      body: { code: 'INSUFFICIENT_BALANCE' },
    });
  });

  it('reads text aloud in a voice of the organization, streamed as the provider sends it, priced by its length', async () => {
    const user = await signUp(server, 'acme');
    await setBalance(user.id, 5);
    const text = 'A'.repeat(900);
    const spoken = await speak(server, user, { text, voice: 'nova' });
    expect(spoken.status).toBe(200);
    expect(spoken.type).toBe('audio/mpeg');
    expect(spoken.bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xfb]));
    expect(double.audio.speeches.at(-1)).toMatchObject({ model: 'tts-1', input: text, voice: 'nova' });
    // 900 characters are a minute at 15 a second: 0.60.
    expect(await money(user.id)).toEqual({ balance: 4.4, reserved: 0 });
    // No voice: the first of the organization's.
    expect((await speak(server, user, { text: 'Hi' })).status).toBe(200);
    expect(double.audio.speeches.at(-1)?.voice).toBe('alloy');
    expect(await speak(server, user, { text: 'Hi', voice: 'onyx' })).toMatchObject({
      status: 400,
      body: { field: 'voice' },
    });
    expect(await speak(server, user, { text: 'x'.repeat(4097) })).toMatchObject({
      status: 400,
      body: { field: 'text' },
    });
    expect(await speak(server, user, { text: '   ' })).toMatchObject({
      status: 400,
      body: { field: 'text' },
    });
    const before = await money(user.id);
    double.audio.script({ status: 503 });
    expect(await speak(server, user, { text: 'Hello' })).toMatchObject({ status: 502 });
    double.audio.script({});
    expect(await money(user.id)).toEqual(before);
  });

  it('holds exact balances when twenty recordings arrive at once', async () => {
    const user = await signUp(server, 'acme');
    // Each 2-second WAV costs 0.01: ten fit, the others are refused, nothing is left reserved.
    await setBalance(user.id, 0.1);
    const answers = await Promise.all(Array.from({ length: 20 }, () => transcribe(server, user, wav(2))));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(10);
    expect(answers.filter((answer) => answer.body.code === 'INSUFFICIENT_BALANCE')).toHaveLength(10);
    expect(await money(user.id)).toEqual({ balance: 0, reserved: 0 });
    // Twenty a minute each way (RATE_LIMIT_AUDIO_PER_USER_PER_MINUTE), per member.
    expect(await transcribe(server, user, wav(2))).toMatchObject({
      status: 429,
      body: { code: 'RATE_LIMITED' },
    });
    // Speech alike: each "Hello there." (12 characters, read in a second at least) costs 0.01 at 0.60 a minute.
    await setBalance(user.id, 0.05);
    const spoken = await Promise.all(
      Array.from({ length: 20 }, () => speak(server, user, { text: 'Hello there.' })),
    );
    expect(spoken.map((answer) => answer.body?.code ?? answer.status).sort()).toEqual([
      ...Array(5).fill(200),
      ...Array(15).fill('INSUFFICIENT_BALANCE'),
    ]);
    expect(await money(user.id)).toEqual({ balance: 0, reserved: 0 });
  });

  it('uses the member’s own organization’s settings and provider, never another’s', async () => {
    const provider = await admin(server, acmeOwner, '/provider', {
      method: 'POST',
      body: { name: acmeOwner.encrypt('Acme audio'), baseUrl: double.url, apiKey: 'sk-acme-audio-secret' },
    });
    expect(provider.status, JSON.stringify(provider.body)).toBe(201);
    expect((await configure(acmeOwner, { provider: provider.body._id })).status).toBe(200);
    // `app` has its own models and no provider: the server's own.
    expect(
      (await configure(appOwner, { transcriptionModel: 'whisper-app', speechModel: null, voices: [] }))
        .status,
    ).toBe(200);
    // Another organization's provider is not one of app's.
    expect((await configure(appOwner, { provider: provider.body._id })).body.field).toBe('speech.provider');

    const acmeUser = await signUp(server, 'acme');
    const appUser = await signUp(server, 'app');
    expect((await transcribe(server, acmeUser, wav(1))).status).toBe(200);
    expect(double.audio.transcriptions.at(-1)).toMatchObject({
      model: 'whisper-1',
      authorization: 'Bearer sk-acme-audio-secret',
    });
    expect((await transcribe(server, appUser, wav(1))).status).toBe(200);
    expect(double.audio.transcriptions.at(-1)).toMatchObject({
      model: 'whisper-app',
      authorization: 'Bearer sk-server-key',
    });
    // app reads nothing aloud, whatever acme does; its member's balance is app's own price (free).
    expect(await speak(server, appUser, { text: 'Hi' })).toMatchObject({
      status: 409,
      body: { code: 'SPEECH_OFF' },
    });
    expect(await money(appUser.id)).toMatchObject({ reserved: 0 });
    // acme's provider id written into app's settings behind the admin's back: never opened for app.
    await server.app.db.query(
      `update organizations set speech = speech || jsonb_build_object('provider', $1::text) where subdomain = 'app'`,
      [provider.body._id],
    );
    const asked = double.audio.transcriptions.length;
    expect(await transcribe(server, appUser, wav(1))).toMatchObject({
      status: 502,
      body: { code: 'PROVIDER_NOT_CONFIGURED' },
    });
    expect(double.audio.transcriptions.length).toBe(asked);
    expect((await call(server, '/api/v1/organization/app')).body.voice).toEqual({
      transcription: true,
      speech: false,
      voices: [],
    });
  });
});
