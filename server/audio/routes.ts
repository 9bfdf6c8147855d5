import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  type AudioKind,
  audioPrice,
  interruptAudio,
  releaseAudio,
  reserveAudio,
  settleAudio,
} from '../billing/audio';
import { ApiError } from '../errors';
import { leaseCheckMs } from '../openai/store';
import type { Owner } from '../owner';
import { providerTarget, resolveProvider } from '../providers/store';
import { ProviderError } from '../providers/types';
import { repeat } from '../repeat';
import { objectOf } from '../schemas';
import { RefusedAddress } from '../security/outbound';
import {
  checkRecording,
  maxBytes,
  maxSeconds,
  maxSpeechCharacters,
  speechSeconds,
  tooLong,
  unreadableAudio,
} from './recording';
import type { SpeechSettings } from './settings';
import { readSpeech } from './store';

const transcriptionOff = () =>
  new ApiError(409, 'Voice input is not set up in this organization.', 'TRANSCRIPTION_OFF');
const speechOff = () => new ApiError(409, 'Reading aloud is not set up in this organization.', 'SPEECH_OFF');

/** The provider's own words on a refusal (OpenAI's `{ error: { message } }`), when it sent some. */
async function providerReason(response: Response): Promise<string> {
  const body = (await response.json().catch(() => null)) as { error?: { message?: unknown } } | null;
  return typeof body?.error?.message === 'string' ? `: ${body.error.message.slice(0, 300)}` : '';
}

/**
 * Voice: `POST /api/v1/audio/transcriptions` (multipart `file`) → `{ text }` and `POST
 * /api/v1/audio/speech` `{ text, voice? }` → the audio, streamed, both forwarded to the organization's
 * OpenAI-compatible `/audio/transcriptions` and `/audio/speech` (its `speech` settings: provider,
 * models, voices; 409 TRANSCRIPTION_OFF / SPEECH_OFF without a model). Priced per minute: held
 * before the provider is called, settled after (transcription: the provider's `verbose_json`
 * duration, or a WAV's own length; speech: the text's length at 15 characters a second), nothing
 * charged when it fails.
 */
export const audioPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  const { timeoutMs, perUserPerMinute } = app.config.audio;
  // A call's lease outlasts its longest wait for the provider: past it, its node is gone.
  const leaseSeconds = timeoutMs / 1000 + 30;
  const running = new Set<string>();
  await interruptAudio(app.db, !app.config.databaseUrl);
  repeat(app, leaseCheckMs, 'releasing cut-off audio calls', () =>
    interruptAudio(app.db, false, [...running]),
  );

  await app.register(multipart, {
    limits: { fileSize: maxBytes, files: 1, fields: 0, parts: 1, headerPairs: 100 },
  });
  app.addHook('preHandler', app.authenticate);

  const limited = {
    rateLimit: {
      max: perUserPerMinute,
      timeWindow: '1 minute',
      hook: 'preHandler',
      keyGenerator: (request: FastifyRequest) => `audio:${request.auth.tenant}/${request.auth.userId}`,
    },
  } as const;

  /** One provider call under the organization's settings, within the timeout; failures are clear 4xx/5xx. */
  async function callProvider(
    request: FastifyRequest,
    reply: FastifyReply,
    settings: SpeechSettings,
    path: string,
    init: { headers: Record<string, string>; body: string | Uint8Array<ArrayBuffer> },
  ): Promise<Response> {
    const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), closedSignal(reply)]);
    try {
      const { baseUrl, apiKey, send } = await providerTarget(
        app.config.openai,
        resolveProvider(app),
        request.tenant,
        {
          provider: settings.provider,
        },
      );
      return await send(`${baseUrl.replace(/\/+$/, '')}${path}`, {
        method: 'POST',
        headers: { ...init.headers, ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
        body: init.body,
        signal,
      });
    } catch (error) {
      if (error instanceof ProviderError) throw new ApiError(502, error.message, error.code);
      if (error instanceof RefusedAddress) throw new ApiError(502, error.message, 'PROVIDER_ERROR');
      if (signal.aborted)
        throw new ApiError(504, 'The voice service did not answer in time. Try again.', 'PROVIDER_TIMEOUT');
      throw new ApiError(502, 'The voice service cannot be reached.', 'PROVIDER_ERROR');
    }
  }

  /** Holds the price, runs `work`, and releases the hold when it fails (its error goes on). */
  async function held<T>(
    owner: Owner,
    call: { kind: AudioKind; price: number },
    work: (id: string) => Promise<T>,
  ): Promise<T> {
    const id = await reserveAudio(app.db, owner, { ...call, seconds: leaseSeconds });
    running.add(id);
    try {
      return await work(id);
    } catch (error) {
      await releaseAudio(app.db, owner, id);
      throw error;
    } finally {
      running.delete(id);
    }
  }

  app.post(
    '/api/v1/audio/transcriptions',
    {
      config: limited,
      schema: {
        consumes: ['multipart/form-data'],
        response: { 200: objectOf({ text: { type: 'string' } }, ['text']) },
      },
    },
    async (request, reply) => {
      const owner: Owner = { tenant: request.auth.tenant, userId: request.auth.userId };
      const settings = await readSpeech(app.db, owner.tenant);
      const model = settings.transcriptionModel;
      if (!model) throw transcriptionOff();
      const bytes = await receiveRecording(request);
      const recording = await checkRecording(bytes);
      // Held for its length when the bytes tell it (WAV), else for the longest recording taken.
      const heldSeconds = recording.seconds ?? maxSeconds;
      const perMinute = settings.transcriptionPrice;
      return held(owner, { kind: 'transcription', price: audioPrice(perMinute, heldSeconds) }, async (id) => {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(bytes)]), `recording.${recording.extension}`);
        form.append('model', model);
        form.append('response_format', 'verbose_json');
        const encoded = new Response(form);
        const response = await callProvider(request, reply, settings, '/audio/transcriptions', {
          headers: { 'content-type': encoded.headers.get('content-type') ?? '', accept: 'application/json' },
          body: new Uint8Array(await encoded.arrayBuffer()),
        });
        if (response.status === 400)
          throw unreadableAudio(`the voice service refused it${await providerReason(response)}`);
        if (!response.ok)
          throw new ApiError(
            502,
            `The voice service refused the request (HTTP ${response.status})${await providerReason(response)}`,
            'PROVIDER_ERROR',
          );
        const answer = (await response.json().catch(() => null)) as {
          text?: unknown;
          duration?: unknown;
        } | null;
        if (typeof answer?.text !== 'string')
          throw new ApiError(502, 'The voice service answered without a transcript.', 'PROVIDER_ERROR');
        const measured = typeof answer.duration === 'number' && answer.duration >= 0 ? answer.duration : null;
        if (measured !== null && measured > maxSeconds) throw tooLong();
        const seconds = measured ?? heldSeconds;
        await settleAudio(app.db, owner, {
          id,
          kind: 'transcription',
          charge: audioPrice(perMinute, seconds),
          seconds,
        });
        return { text: answer.text.trim() };
      });
    },
  );

  app.post(
    '/api/v1/audio/speech',
    {
      config: limited,
      schema: {
        body: objectOf(
          {
            text: { type: 'string', minLength: 1, maxLength: maxSpeechCharacters },
            voice: { type: 'string', minLength: 1, maxLength: 40 },
          },
          ['text'],
        ),
      },
    },
    async (request, reply) => {
      const owner: Owner = { tenant: request.auth.tenant, userId: request.auth.userId };
      const settings = await readSpeech(app.db, owner.tenant);
      const model = settings.speechModel;
      if (!model) throw speechOff();
      const text = request.body.text.trim();
      if (!text) throw new ApiError(400, 'There is no text to read aloud.', 'INVALID_INPUT', 'text');
      const voice = request.body.voice ?? settings.voices[0];
      if (!voice || !settings.voices.includes(voice))
        throw new ApiError(
          400,
          `Choose one of the organization’s voices: ${settings.voices.join(', ')}.`,
          'INVALID_INPUT',
          'voice',
        );
      const seconds = speechSeconds(text);
      const price = audioPrice(settings.speechPrice, seconds);
      const id = await reserveAudio(app.db, owner, { kind: 'speech', price, seconds: leaseSeconds });
      running.add(id);
      let settled = false;
      try {
        const response = await callProvider(request, reply, settings, '/audio/speech', {
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model, input: text, voice, response_format: 'mp3' }),
        });
        if (!response.ok || !response.body)
          throw new ApiError(
            502,
            `The voice service refused the request (HTTP ${response.status})${await providerReason(response)}`,
            'PROVIDER_ERROR',
          );
        const audio = Readable.fromWeb(response.body as never);
        // Charged once every byte has come, before the answer ends; cut short, released.
        async function* relay() {
          try {
            for await (const piece of audio) yield piece as Buffer;
            await settleAudio(app.db, owner, { id, kind: 'speech', charge: price, seconds });
            settled = true;
          } finally {
            running.delete(id);
            if (!settled) await releaseAudio(app.db, owner, id);
          }
        }
        return reply
          .type(response.headers.get('content-type') ?? 'audio/mpeg')
          .header('cache-control', 'no-store')
          .send(Readable.from(relay()));
      } catch (error) {
        running.delete(id);
        await releaseAudio(app.db, owner, id);
        throw error;
      }
    },
  );

  /** The request's `file`, read whole within `maxBytes` (413 beyond). */
  async function receiveRecording(request: FastifyRequest): Promise<Buffer> {
    if (!request.isMultipart())
      throw new ApiError(
        415,
        'Send the recording as multipart/form-data, in the field "file".',
        'INVALID_MEDIA_TYPE',
        'file',
      );
    const part = await request.file();
    if (part?.fieldname !== 'file') {
      part?.file.resume();
      throw new ApiError(400, 'Please attach the recording in the field "file".', 'INVALID_INPUT', 'file');
    }
    try {
      return await part.toBuffer();
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
        throw new ApiError(
          413,
          `The recording is larger than ${maxBytes / 1024 / 1024} MB.`,
          'FILE_TOO_LARGE',
          'file',
        );
      throw error;
    }
  }
};

/** Aborts when the client goes away before its answer is written. */
function closedSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}
