import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, isIPv4 } from 'node:net';
import { Readable } from 'node:stream';

/**
 * Requests to addresses an organization's admin typed in (model providers) must not reach the
 * server's own network (SSRF): loopback, private, link-local, unique-local, CGNAT, unspecified,
 * multicast and reserved addresses are refused, in every spelling (IPv4-mapped, NAT64, 6to4…), for
 * every address a name resolves to, and again when connecting (a name that resolves elsewhere the
 * second time, DNS rebinding, is checked on the address actually used).
 */
export class RefusedAddress extends Error {
  constructor(readonly host: string) {
    super(
      `The address ${host} is on a private or local network, which providers may not use. ` +
        'Use the provider’s public address (the operator can allow private addresses with ALLOW_PRIVATE_PROVIDER_URLS=true).',
    );
  }
}

const v4Blocked: [number, number][] = [
  ['0.0.0.0', 8], // "this" network, unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
].map(([base, bits]) => [v4Number(base as string), bits as number]);

function v4Number(address: string): number {
  return address.split('.').reduce((value, part) => value * 256 + Number(part), 0);
}

function v4IsBlocked(value: number): boolean {
  return v4Blocked.some(([base, bits]) => {
    const size = 2 ** (32 - bits);
    return Math.floor(value / size) === Math.floor(base / size);
  });
}

/** The 16 bytes of an IPv6 address (with `::` and a dotted IPv4 tail), or null. */
function v6Bytes(address: string): number[] | null {
  let text = address.split('%')[0].toLowerCase();
  // A dotted IPv4 tail is two groups.
  const dotted = /:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    if (!isIPv4(dotted[1])) return null;
    const value = v4Number(dotted[1]);
    text = `${text.slice(0, dotted.index + 1)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const [head, rest] = text.split('::');
  const groups = (part: string | undefined) =>
    part
      ? part
          .split(':')
          .filter((group) => group !== '')
          .map((group) => Number.parseInt(group, 16))
      : [];
  const front = groups(head);
  const back = groups(rest);
  const missing = 8 - front.length - back.length;
  if (missing < 0 || (rest === undefined && missing !== 0)) return null;
  const words = [...front, ...Array(missing).fill(0), ...back];
  if (words.some((word) => !Number.isInteger(word) || word < 0 || word > 0xffff)) return null;
  return words.flatMap((word) => [word >> 8, word & 0xff]);
}

const startsWith = (bytes: number[], prefix: number[], bits: number) => {
  for (let bit = 0; bit < bits; bit += 1) {
    const mask = 0x80 >> (bit % 8);
    if ((bytes[Math.floor(bit / 8)] & mask) !== (prefix[Math.floor(bit / 8)] & mask)) return false;
  }
  return true;
};
const v4Of = (bytes: number[], from: number) =>
  ((bytes[from] << 24) >>> 0) + (bytes[from + 1] << 16) + (bytes[from + 2] << 8) + bytes[from + 3];

/** Whether an IP address (v4 or v6, any spelling Node accepts) is one a provider may not use. */
export function isPrivateAddress(address: string): boolean {
  const kind = isIP(address.split('%')[0]);
  if (kind === 4) return v4IsBlocked(v4Number(address));
  if (kind !== 6) return true;
  const bytes = v6Bytes(address);
  if (!bytes) return true;
  const prefix = (text: string) => v6Bytes(text) as number[];
  // Forms that carry an IPv4 address: judged by it.
  if (startsWith(bytes, prefix('::ffff:0:0'), 96)) return v4IsBlocked(v4Of(bytes, 12)); // mapped
  if (startsWith(bytes, prefix('::ffff:0:0:0'), 96)) return v4IsBlocked(v4Of(bytes, 12)); // translated
  if (startsWith(bytes, prefix('64:ff9b::'), 96)) return v4IsBlocked(v4Of(bytes, 12)); // NAT64
  if (startsWith(bytes, prefix('2002::'), 16)) return v4IsBlocked(v4Of(bytes, 2)); // 6to4
  if (startsWith(bytes, prefix('::'), 96)) return true; // unspecified, loopback, IPv4-compatible
  const blocked: [string, number][] = [
    ['64:ff9b:1::', 48], // local-use NAT64
    ['100::', 64], // discard
    ['2001::', 32], // Teredo: hides an IPv4 address
    ['2001:db8::', 32], // documentation
    ['fc00::', 7], // unique-local
    ['fe80::', 10], // link-local
    ['fec0::', 10], // site-local (deprecated)
    ['ff00::', 8], // multicast
  ];
  return blocked.some(([base, bits]) => startsWith(bytes, prefix(base), bits));
}

const badUrl = (message: string) => Object.assign(new Error(message), { badUrl: true });

/** The URL when it is http(s) without credentials; else an Error with `badUrl`. */
export function parseProviderUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badUrl('The base URL is not a valid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw badUrl('The base URL must start with http:// or https://.');
  if (url.username || url.password) throw badUrl('Put the key in API key, not in the base URL.');
  return url;
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    dnsLookup(host, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });
}

/**
 * Checks a provider's base URL: scheme, and (unless private addresses are allowed) every address its
 * host resolves to. Throws RefusedAddress, or an Error with `badUrl` (or a DNS error) for a bad URL.
 */
export async function checkProviderUrl(value: string, allowPrivate: boolean): Promise<URL> {
  const url = parseProviderUrl(value);
  if (allowPrivate) return url;
  const host = hostOf(url);
  if (isIP(host)) {
    if (isPrivateAddress(host)) throw new RefusedAddress(host);
    return url;
  }
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(host);
  } catch {
    throw badUrl(`The host ${host} cannot be found.`);
  }
  if (!addresses.length || addresses.some((entry) => isPrivateAddress(entry.address)))
    throw new RefusedAddress(host);
  return url;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** The lookup the connection uses: every address checked, so the one connected to was checked. */
function checkedLookup(
  hostname: string,
  options: { all?: boolean; family?: number },
  callback: LookupCallback,
) {
  dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (error, addresses) => {
    if (error) return callback(error, '');
    if (!addresses.length || addresses.some((entry) => isPrivateAddress(entry.address)))
      return callback(new RefusedAddress(hostname), '');
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
}

/**
 * `fetch` for addresses an organization chose: with private addresses allowed it is plain fetch;
 * otherwise node:http(s) with the checking lookup, never following a redirect.
 */
export async function providerFetch(
  value: string,
  init: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Uint8Array<ArrayBuffer>;
    signal?: AbortSignal;
  },
  allowPrivate: boolean,
): Promise<Response> {
  if (allowPrivate) return fetch(value, { ...init, redirect: 'manual' });
  const url = await checkProviderUrl(value, false);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const incoming = await new Promise<IncomingMessage>((resolve, reject) => {
    const outgoing = send(
      url,
      {
        method: init.method ?? 'GET',
        headers: init.headers,
        signal: init.signal,
        lookup: checkedLookup as never,
      },
      resolve,
    );
    outgoing.on('error', reject);
    outgoing.end(init.body);
  });
  const headers = new Headers();
  for (const [name, content] of Object.entries(incoming.headers)) {
    if (content !== undefined) headers.set(name, Array.isArray(content) ? content.join(', ') : content);
  }
  const status = incoming.statusCode ?? 502;
  const empty = status === 204 || status === 304 || init.method === 'HEAD';
  if (empty) incoming.resume();
  return new Response(empty ? null : (Readable.toWeb(incoming) as ReadableStream), { status, headers });
}
