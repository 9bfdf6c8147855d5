import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { chargeImage, holdImage, releaseImage } from '../../billing/images';
import { ApiError } from '../../errors';
import { processImage } from '../../files/images';
import { isImage } from '../../files/kinds';
import { readFile, saveReplyFile } from '../../files/store';
import { cleanFileName } from '../../files/upload';
import { imageSettings } from '../../organizations/store';
import type { Owner } from '../../owner';
import { providerTarget, resolveProvider } from '../../providers/store';
import { ProviderError } from '../../providers/types';
import { providerFetch, RefusedAddress } from '../../security/outbound';
import type { StepOwner } from '../steps';
import { ToolError } from '../types';
import { optionalString, stringArgument } from './arguments';
import { readLimited } from './fetchUrl';

/** The sizes OpenAI's image models take; `auto` lets the model choose. */
export const imageSizes = ['1024x1024', '1024x1536', '1536x1024', 'auto'] as const;
type ImageSize = (typeof imageSizes)[number];
/** The most of an image read from the provider. */
const imageMaxBytes = 20 * 1024 * 1024;

/** The organization's image generation: where (`provider`: its provider's id, null = the server's own), which model, and the price of one image. */
type ImageSettings = NonNullable<Awaited<ReturnType<typeof imageSettings>>>;
/** The longest prompt sent (OpenAI's image models take a few thousand characters). */
export const imagePromptMax = 4000;

class TooSlow extends Error {}

/** What the provider's `/images/generations` answers, as far as it is read. */
interface Generations {
  data?: { b64_json?: unknown; url?: unknown; revised_prompt?: unknown }[];
  error?: { message?: unknown };
}

/**
 * One image from the organization's OpenAI-compatible `/images/generations` (its provider resolved as
 * a model bot's is, through the guard against private addresses), asked as base64 (`b64_json`); a
 * server that answers a `url` instead has it fetched through the same guard. Within IMAGE_TIMEOUT_SECONDS
 * and `imageMaxBytes`; every failure is a ToolError the model (and the member) can read.
 */
async function requestImage(
  app: FastifyInstance,
  tenant: string,
  settings: ImageSettings,
  asked: { prompt: string; size: ImageSize },
  signal: AbortSignal,
): Promise<{ bytes: Buffer; revisedPrompt?: string }> {
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(new TooSlow()), app.config.imageTimeoutMs);
  const both = AbortSignal.any([signal, timer.signal]);
  try {
    const { baseUrl, apiKey, send } = await providerTarget(app.config.openai, resolveProvider(app), tenant, {
      ...(settings.provider ? { provider: settings.provider } : {}),
    });
    const response = await send(`${baseUrl.replace(/\/+$/, '')}/images/generations`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: settings.model,
        prompt: asked.prompt,
        n: 1,
        size: asked.size,
        response_format: 'b64_json',
      }),
      signal: both,
    });
    // The answer is read within the limit too: an image in base64 is a third larger.
    const answer = await readLimited(response.body, Math.ceil((imageMaxBytes * 4) / 3) + 64 * 1024);
    if (answer.cut) throw tooLarge();
    const body = parsed(answer.bytes);
    if (!response.ok) {
      const reason = typeof body?.error?.message === 'string' ? `: ${body.error.message}` : '';
      throw new ToolError(`The image service refused the request (HTTP ${response.status})${reason}`);
    }
    const image = body?.data?.[0];
    const revisedPrompt = typeof image?.revised_prompt === 'string' ? image.revised_prompt : undefined;
    if (typeof image?.b64_json === 'string' && image.b64_json) {
      return { bytes: Buffer.from(image.b64_json, 'base64'), revisedPrompt };
    }
    if (typeof image?.url === 'string')
      return { bytes: await fetchImage(app, image.url, both), revisedPrompt };
    throw new ToolError('The image service answered without an image.');
  } catch (error) {
    if (error instanceof ToolError || signal.aborted) throw error;
    if (error instanceof ProviderError) throw new ToolError(error.message);
    if (timer.signal.aborted)
      throw new ToolError(`The image service did not answer within ${app.config.imageTimeoutMs / 1000} s.`);
    const refused = error instanceof RefusedAddress ? error : (error as { cause?: unknown }).cause;
    if (refused instanceof RefusedAddress)
      throw new ToolError('The image service’s address is on a private network, which is not allowed.');
    throw new ToolError('The image service cannot be reached.');
  } finally {
    clearTimeout(timeout);
  }
}

/** The JSON of an answer, or null when it is none. */
function parsed(bytes: Uint8Array): Generations | null {
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as Generations;
  } catch {
    return null;
  }
}

const tooLarge = () => new ToolError(`The image is larger than ${imageMaxBytes / 1024 / 1024} MB.`);

/** An image the provider answered as a `url`: http(s), fetched through the guard, within the limit. */
async function fetchImage(app: FastifyInstance, value: string, signal: AbortSignal): Promise<Buffer> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ToolError('The image service answered an address that is not a URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ToolError('The image service answered an address that is not http or https.');
  const response = await providerFetch(
    url.href,
    { method: 'GET', signal },
    app.config.allowPrivateProviderUrls,
  );
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new ToolError(`The image could not be fetched (HTTP ${response.status}).`);
  }
  const { bytes, cut } = await readLimited(response.body, imageMaxBytes);
  if (cut) throw tooLarge();
  return Buffer.from(bytes);
}

const extensions: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/** The image's file name: the prompt's first words (its fitting start), with the type's extension. */
const imageName = (prompt: string, type: string) =>
  cleanFileName(
    `${prompt
      .slice(0, 60)
      .trim()
      .replace(/[.\s]+$/, '')}.${extensions[type]}`,
  );

/**
 * `generate_image`: one image from the prompt, from the organization's image settings (provider,
 * model, price), stored as a file of the member carried by the reply (`files`, like an attachment:
 * the usual limits, quota and tenancy) and charged its price: held before the provider is called,
 * charged once the image is stored, given back when anything fails. The same prompt and size asked
 * again by the same reply (continued, or the model repeating itself) answer the image made, free.
 * Only in a conversation's reply (`reply` names its message): elsewhere nobody could see the image.
 */
export function generateImageTool(app: FastifyInstance, owner: Owner) {
  return async (args: Record<string, unknown>, signal: AbortSignal, reply: StepOwner | null) => {
    const prompt = stringArgument(args, 'prompt', 'generate_image').trim().slice(0, imagePromptMax);
    const size = optionalString(args, 'size', 'generate_image') ?? 'auto';
    if (!(imageSizes as readonly string[]).includes(size))
      throw new ToolError(`generate_image: the size must be one of ${imageSizes.join(', ')}.`);
    if (!reply || !('messageId' in reply))
      throw new ToolError('Images are generated in the app’s conversations only.');
    const settings = await imageSettings(app.db, owner.tenant);
    if (!settings) throw new ToolError('Image generation is not set up in this organization.');
    const key = createHash('sha256').update(`${size}\n${prompt}`).digest('hex');
    const hold = await holdImage(app.db, owner, {
      messageId: reply.messageId,
      key,
      price: settings.price,
    }).catch((error) => {
      // No credit, budget reached: the model reads why (and so does the member).
      throw error instanceof ApiError ? new ToolError(error.message) : error;
    });
    if ('busy' in hold) throw new ToolError('This image is being generated already.');
    if ('fileId' in hold) return answer(await readFile(app.db, owner, hold.fileId));
    try {
      const image = await requestImage(
        app,
        owner.tenant,
        settings,
        { prompt, size: size as ImageSize },
        signal,
      );
      const type = (await fileTypeFromBuffer(image.bytes))?.mime ?? '';
      if (!isImage(type)) throw new ToolError('The image service answered something that is not an image.');
      const limits = app.config.files;
      const processed = await processImage(image.bytes, type, {
        maxPixels: limits.maxPixels,
        maxAnimationPixels: limits.maxAnimationPixels,
        timeoutMs: limits.extractTimeoutMs,
      });
      if ('status' in processed) throw new ToolError(processed.error);
      const stored = await saveReplyFile(
        app.db,
        owner,
        reply.messageId,
        {
          name: imageName(prompt, type),
          sha256: createHash('sha256').update(image.bytes).digest('hex'),
          blob: { type, ...processed },
        },
        async (tx, file) => {
          const charge = await chargeImage(tx, owner, {
            id: hold.id,
            fileId: file._id,
            description: `Image (${settings.model})`,
          });
          if (!charge) throw new ToolError('The reply ended before the image was ready.');
          return charge;
        },
      );
      return answer(stored.file, image.revisedPrompt);
    } catch (error) {
      await releaseImage(app.db, owner, hold.id);
      // The organization's storage is full: the model reads why.
      if (error instanceof ApiError) throw new ToolError(error.message);
      throw error;
    }
  };
}

/** What the model reads of the image made: the reply's file, and the prompt the service used. */
const answer = (file: { _id: string; name: string; type: string; size: number }, revisedPrompt?: string) =>
  JSON.stringify({
    _id: file._id,
    name: file.name,
    type: file.type,
    size: file.size,
    ...(revisedPrompt ? { revisedPrompt } : {}),
    shown: 'The image is shown to the user with your reply: do not link or describe it unless asked.',
  });
