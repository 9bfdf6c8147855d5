import redaxios, { type Options, type Response } from 'redaxios';
import { type Encrypt, encryptSensitiveFields } from './sensitiveFields';
import type { ApiError } from './types';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Query = Record<string, string | number | boolean | undefined>;
type Body = Record<string, unknown> | FormData;

/** A failed call, with a message the UI can show as it is. */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  /** The form field the server says the error is about, so a form can show it next to that field. */
  readonly field: string | undefined;
  constructor(status: number, message: string, code: string, field?: string) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

export interface HttpClientOptions {
  /** Origin of the API; empty means the page's own origin. */
  baseURL?: string;
  getToken: () => string | null;
  getOrganization: () => string | null;
  /** The page's host, for the `country` subdomain swap. */
  getHost: () => string;
  /** Reports a 401 on a read, patch or delete so the session machine can route the user. */
  onUnauthorized: (method: Method) => void;
  /** Loads the encryptor lazily: only bodies with sensitive fields pay for jsencrypt and the key. */
  loadEncrypt: () => Promise<Encrypt>;
  fetch?: typeof fetch;
  /** Makes the request an upload uses (progress events need XMLHttpRequest); the browser's by default. */
  createXhr?: () => XMLHttpRequest;
}

/** How far an upload got: `loaded` of `total` bytes of the request body. */
export type UploadProgress = (loaded: number, total: number) => void;

export interface PostOptions {
  /** Reject with the HttpError instead of answering `{ success: false }`. */
  returnError?: boolean;
}

export type Failure = { success: false };

const networkMessage = 'Cannot reach the server. Check your connection and try again.';

function toHttpError(reason: unknown): HttpError {
  if (reason instanceof HttpError) return reason;
  const response = reason as Partial<Response<Partial<ApiError> | string>> | undefined;
  if (response && typeof response.status === 'number') {
    const data = response.data;
    const message =
      typeof data === 'object' && data?.error ? data.error : response.statusText || 'Request failed';
    const code = typeof data === 'object' && data?.code ? data.code : `HTTP_${response.status}`;
    const field = typeof data === 'object' && typeof data?.field === 'string' ? data.field : undefined;
    return new HttpError(response.status, message, code, field);
  }
  if (reason instanceof Error && reason.name === 'EncryptionError') {
    return new HttpError(0, reason.message, 'ENCRYPTION_FAILED');
  }
  return new HttpError(0, networkMessage, 'NETWORK');
}

/** `app.example.com` becomes `de.example.com` for a body with `country: 'de'` (seed-spec §7). */
export function swapAppSubdomain(url: string, host: string, country: unknown): string {
  if (typeof country !== 'string' || !/^[a-z]{2,3}$/i.test(country)) return url;
  const [first, ...rest] = host.split('.');
  if (first !== 'app' || rest.length === 0) return url;
  const target = new URL(url, `https://${host}`);
  if (target.host !== host) return url;
  target.host = [country.toLowerCase(), ...rest].join('.');
  return target.toString();
}

/** The one network door of the app: every rule of seed-spec §7 lives here. */
export function createHttpClient(options: HttpClientOptions) {
  const baseURL = options.baseURL ?? '';

  /** redaxios passes no abort signal to fetch: a wrapped fetch does. */
  function fetchWith(signal: AbortSignal | undefined): typeof fetch | undefined {
    if (!signal) return options.fetch;
    const fetchImpl = options.fetch ?? fetch;
    return (input, init) => fetchImpl(input, { ...init, signal });
  }

  function headers(): Record<string, string> {
    const result: Record<string, string> = {};
    const token = options.getToken();
    const organization = options.getOrganization();
    if (token) result.Authorization = `Bearer ${token}`;
    if (organization) result.Organization = organization;
    return result;
  }

  async function send<T>(
    method: Method,
    path: string,
    body?: Body,
    extra: Options = {},
  ): Promise<Response<T>> {
    let url = `${baseURL}${path}`;
    let data: Body | undefined = body;
    if (body && !(body instanceof FormData) && 'country' in body) {
      url = swapAppSubdomain(url, options.getHost(), body.country);
    }
    const { headers: extraHeaders, ...rest } = extra;
    try {
      if (body) data = await encryptSensitiveFields(body, options.loadEncrypt);
      return await redaxios<T>({
        url,
        method,
        data,
        headers: { ...headers(), ...(extraHeaders as Record<string, string> | undefined) },
        withCredentials: true,
        fetch: options.fetch,
        ...rest,
      });
    } catch (reason) {
      // A file's route refuses in JSON too: read it, so its sentence reaches the user.
      const refused = reason as { data?: unknown } | undefined;
      if (refused?.data instanceof Blob && refused.data.type.includes('json'))
        refused.data = parseJson(await refused.data.text());
      const error = toHttpError(reason);
      if (error.status === 401 && (method === 'GET' || method === 'PATCH' || method === 'DELETE')) {
        options.onUnauthorized(method);
      }
      throw error;
    }
  }

  function post<T>(
    path: string,
    body: Body | undefined,
    postOptions: PostOptions & { returnError: true },
  ): Promise<T>;
  function post<T>(path: string, body?: Body, postOptions?: PostOptions): Promise<T | Failure>;
  async function post<T>(path: string, body?: Body, postOptions: PostOptions = {}): Promise<T | Failure> {
    try {
      return (await send<T>('POST', path, body)).data;
    } catch (error) {
      if (postOptions.returnError) throw error;
      return { success: false };
    }
  }

  return {
    /** GET with its query; aborting the signal drops the request (a stale search, say). */
    async get<T>(path: string, params?: Query, signal?: AbortSignal): Promise<T> {
      return (
        await send<T>('GET', path, undefined, { params: definedOnly(params), fetch: fetchWith(signal) })
      ).data;
    },

    /** GET of a file to save: its contents, type, and the name its Content-Disposition gives it. */
    async download(
      path: string,
      params?: Query,
    ): Promise<{ name: string | null; contents: string; type: string }> {
      const response = await send<Blob>('GET', path, undefined, {
        params: definedOnly(params),
        responseType: 'blob',
      });
      const disposition = response.headers.get('content-disposition') ?? '';
      return {
        name: /filename="([^"]+)"/.exec(disposition)?.[1] ?? null,
        contents: await response.data.text(),
        type: response.data.type,
      };
    },

    post,

    /**
     * POST of a multipart body with upload progress (fetch has none): the same headers and
     * credentials, and the body goes through the same sensitive-field step, which leaves multipart
     * bodies untouched but for a password. Rejects with the server's HttpError; aborting the signal
     * stops the upload.
     */
    async upload<T>(
      path: string,
      body: FormData,
      onProgress: UploadProgress,
      signal: AbortSignal,
    ): Promise<T> {
      const data = await encryptSensitiveFields(body, options.loadEncrypt);
      const request = options.createXhr?.() ?? new XMLHttpRequest();
      return new Promise<T>((resolve, reject) => {
        request.open('POST', `${baseURL}${path}`);
        request.withCredentials = true;
        for (const [name, value] of Object.entries(headers())) request.setRequestHeader(name, value);
        request.responseType = 'text';
        request.upload.onprogress = (event) =>
          onProgress(event.loaded, event.lengthComputable ? event.total : 0);
        request.onload = () => {
          const answer = parseJson(request.responseText);
          if (request.status >= 200 && request.status < 300) return resolve(answer as T);
          reject(toHttpError({ status: request.status, statusText: request.statusText, data: answer }));
        };
        request.onerror = () => reject(new HttpError(0, networkMessage, 'NETWORK'));
        request.onabort = () => reject(new HttpError(0, `The upload was stopped.`, 'ABORTED'));
        signal.addEventListener('abort', () => request.abort(), { once: true });
        request.send(data);
      });
    },

    /** POST of a JSON body answering a file (audio read aloud), as a Blob; aborting the signal drops it. */
    async postForBlob(path: string, body: Body, signal?: AbortSignal): Promise<Blob> {
      return (await send<Blob>('POST', path, body, { responseType: 'blob', fetch: fetchWith(signal) })).data;
    },

    /** GET of a file's bytes, as a Blob (the content routes want the bearer token, so no plain link). */
    async blob(path: string, params?: Query): Promise<Blob> {
      return (await send<Blob>('GET', path, undefined, { params: definedOnly(params), responseType: 'blob' }))
        .data;
    },

    async put(path: string, body?: Body): Promise<{ success: boolean }> {
      try {
        const response = await send<unknown>('PUT', path, body);
        return { success: response.data === 'OK' };
      } catch {
        return { success: false };
      }
    },

    /**
     * PUT of a JSON body answering JSON, or of `null` (a setting turned off); errors, a 500 included,
     * are returned to the caller as a rejected HttpError.
     */
    async replace<T>(path: string, body: Record<string, unknown> | null): Promise<T> {
      if (body) return (await send<T>('PUT', path, body)).data;
      return (
        await send<T>('PUT', path, undefined, {
          data: 'null',
          headers: { 'content-type': 'application/json' },
        })
      ).data;
    },

    /** Errors, a 500 included, are returned to the caller as a rejected HttpError. */
    async patch<T>(path: string, body?: Body): Promise<T> {
      return (await send<T>('PATCH', path, body)).data;
    },

    /** DELETE with its query (seed-spec §7) and, when a change needs one (a password), a JSON body. */
    async delete<T>(path: string, params?: Query, body?: Record<string, unknown>): Promise<T> {
      return (await send<T>('DELETE', path, body, { params: definedOnly(params) })).data;
    },

    /**
     * A call answering a stream (server-sent events): POST with a body, or GET resuming after
     * `lastEventId`. The signal stops the request; null when there is nothing to stream (204).
     */
    async stream(
      path: string,
      body: Body | null,
      signal: AbortSignal,
      lastEventId?: number,
    ): Promise<ReadableStream<Uint8Array> | null> {
      const response = await send<ReadableStream<Uint8Array> | null>(
        body ? 'POST' : 'GET',
        path,
        body ?? undefined,
        {
          responseType: 'stream',
          fetch: fetchWith(signal),
          headers: lastEventId === undefined ? undefined : { 'Last-Event-ID': String(lastEventId) },
        },
      );
      // redaxios hands streams back before checking the status, so errors are read here.
      if (response.status >= 400) {
        const text = response.data ? await new Response(response.data).text() : '';
        throw toHttpError({
          status: response.status,
          statusText: response.statusText,
          data: parseJson(text),
        });
      }
      if (response.status === 204) return null;
      if (!response.data) throw new HttpError(response.status, 'The reply could not be read', 'NO_STREAM');
      return response.data;
    },
  };
}

export type HttpClient = ReturnType<typeof createHttpClient>;

function definedOnly(params: Query | undefined): Record<string, string> | undefined {
  if (!params) return undefined;
  const entries = Object.entries(params).filter(([, value]) => value !== undefined);
  return entries.length ? Object.fromEntries(entries.map(([key, value]) => [key, String(value)])) : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
