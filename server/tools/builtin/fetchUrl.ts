import { providerFetch, RefusedAddress } from '../../security/outbound';
import { ToolError } from '../types';
import { stringArgument } from './arguments';
import { htmlToText } from './html';

/** The most of a page read: the rest is cut. */
export const fetchLimitBytes = 1024 * 1024;
/** The longest a fetch may take, from the request to the last byte read. */
export const fetchTimeoutMs = 10_000;
const maxRedirects = 5;

class TooSlow extends Error {}

/** The URL when it is http(s) without credentials; a ToolError otherwise. */
function webAddress(value: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    throw new ToolError(`"${value}" is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ToolError(`Only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, '')}.`);
  if (url.username || url.password) throw new ToolError('URLs with a user name or password are not fetched.');
  url.hash = '';
  return url;
}

/** Reads at most `limit` bytes of the body; says whether there was more. */
export async function readLimited(
  body: ReadableStream<Uint8Array> | null,
  limit = fetchLimitBytes,
): Promise<{ bytes: Uint8Array; cut: boolean }> {
  if (!body) return { bytes: new Uint8Array(), cut: false };
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = limit - size;
    parts.push(value.length > room ? value.subarray(0, room) : value);
    size += Math.min(value.length, room);
    if (value.length >= room) {
      cut = value.length > room || !(await reader.read().then((next) => next.done));
      break;
    }
  }
  await reader.cancel().catch(() => {});
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return { bytes, cut };
}

function decode(bytes: Uint8Array, charset: string | undefined): string {
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

const textual =
  /^(text\/|application\/(json|xml|xhtml\+xml|javascript|ld\+json|rss\+xml|atom\+xml)|[^;]*\+(json|xml))/i;

/**
 * `fetch_url`: a page's text, as a reader sees it. http(s) only, through the providers' guard against
 * private addresses (checked again at every redirect, and when connecting); no cookies or credentials
 * are ever sent; at most 1 MB read and 10 s spent.
 */
export function fetchUrlTool(allowPrivate: boolean) {
  return async (args: Record<string, unknown>, signal: AbortSignal): Promise<string> => {
    let url = webAddress(stringArgument(args, 'url', 'fetch_url').trim());
    const timer = new AbortController();
    const timeout = setTimeout(() => timer.abort(new TooSlow()), fetchTimeoutMs);
    const both = AbortSignal.any([signal, timer.signal]);
    try {
      for (let hop = 0; ; hop += 1) {
        const response = await providerFetch(
          url.href,
          {
            method: 'GET',
            headers: {
              accept: 'text/html, text/plain;q=0.9, */*;q=0.5',
              'user-agent': 'Parley fetch_url (+https://github.com/parley)',
            },
            signal: both,
          },
          allowPrivate,
        );
        if (response.status >= 300 && response.status < 400 && response.headers.get('location')) {
          await response.body?.cancel().catch(() => {});
          if (hop >= maxRedirects)
            throw new ToolError(`More than ${maxRedirects} redirects from ${url.href}.`);
          url = webAddress(response.headers.get('location') as string, url);
          continue;
        }
        if (!response.ok) {
          await response.body?.cancel().catch(() => {});
          throw new ToolError(`${url.href} answered HTTP ${response.status}.`);
        }
        const type = response.headers.get('content-type') ?? '';
        const charset = /charset="?([\w-]+)/i.exec(type)?.[1];
        const { bytes, cut } = await readLimited(response.body);
        const body = decode(bytes, charset);
        const html = /html/i.test(type) || (!type && /^\s*</.test(body));
        if (!html && !textual.test(type) && (type || body.includes('\u0000')))
          throw new ToolError(`${url.href} is not a text page (${type || 'binary'}).`);
        const page = html ? htmlToText(body) : { text: body.trim() };
        return [
          `URL: ${url.href}`,
          ...('title' in page && page.title ? [`Title: ${page.title}`] : []),
          '',
          page.text || '(The page has no text.)',
          ...(cut ? ['', '[Only the first 1 MB of the page was read.]'] : []),
        ].join('\n');
      }
    } catch (error) {
      if (error instanceof ToolError) throw error;
      if (signal.aborted) throw error;
      if (timer.signal.aborted)
        throw new ToolError(`${url.href} took longer than ${fetchTimeoutMs / 1000} s.`);
      const refused = error instanceof RefusedAddress ? error : (error as { cause?: unknown }).cause;
      if (refused instanceof RefusedAddress)
        throw new ToolError(
          `${url.href} is on a private or local network (${refused.host}), which fetch_url may not reach.`,
        );
      if ((error as { badUrl?: boolean }).badUrl) throw new ToolError((error as Error).message);
      throw new ToolError(`${url.href} cannot be reached.`);
    } finally {
      clearTimeout(timeout);
    }
  };
}
