import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchUrlTool } from '../../../server/tools/builtin/fetchUrl';
import { htmlToText } from '../../../server/tools/builtin/html';
import { ToolError } from '../../../server/tools/types';

const page = `<!doctype html>
<html><head><title>Tides &amp; Moons</title><style>body { color: red }</style>
<script>document.write("<p>not text</p>")</script></head>
<body><nav><a href="/">Home</a></nav>
<h1>The tides</h1><p>High water comes twice a day&nbsp;&mdash; roughly every 12&#160;h&#x20;25&nbsp;min.</p>
<!-- <p>a comment</p> -->
<ul><li>Spring tides</li><li data-x="a>b">Neap tides</li></ul>
<table><tr><td>Brest</td><td>7.0 m</td></tr></table>
<noscript>Enable JavaScript</noscript><svg><text>drawn</text></svg>
</body></html>`;

/** `fetch_url` against real HTTP servers on this machine (private addresses allowed, as an operator may). */
describe('fetch_url', () => {
  let server: Server;
  let base: string;
  const seen: IncomingMessage[] = [];
  const routes: Record<string, (response: ServerResponse) => void> = {
    '/page': (response) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page),
    '/moved': (response) =>
      response.writeHead(302, { location: '/page', 'set-cookie': 'session=secret; Path=/' }).end(),
    '/to-file': (response) => response.writeHead(301, { location: 'file:///etc/passwd' }).end(),
    '/loop': (response) => response.writeHead(302, { location: '/loop' }).end(),
    '/big': (response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('x'.repeat(3 * 1024 * 1024));
    },
    '/png': (response) =>
      response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([137, 80, 78, 71])),
    '/missing': (response) => response.writeHead(404, { 'content-type': 'text/plain' }).end('no'),
    '/latin1': (response) =>
      response
        .writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' })
        .end(Buffer.from([0x63, 0x61, 0x66, 0xe9])),
    '/slow': (response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.write('<p>start');
    },
  };

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push(request);
      const route = routes[request.url ?? ''];
      if (route) route(response);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const fetchUrl = fetchUrlTool(true);
  const run = (url: string) => fetchUrl({ url }, new AbortController().signal);
  const failure = async (url: string) => {
    try {
      await run(url);
    } catch (error) {
      expect(error).toBeInstanceOf(ToolError);
      return (error as Error).message;
    }
    throw new Error('fetched');
  };

  it('reads a page as text: title, blocks on lines, list items, entities; no scripts, styles or comments', async () => {
    expect(await run(`${base}/page`)).toBe(
      [
        `URL: ${base}/page`,
        'Title: Tides & Moons',
        '',
        'Home',
        '',
        'The tides',
        '',
        'High water comes twice a day — roughly every 12 h 25 min.',
        '',
        '- Spring tides',
        '- Neap tides',
        '',
        'Brest 7.0 m',
      ].join('\n'),
    );
  });

  it('follows redirects, never sending a cookie, and refuses one to another scheme or in a loop', async () => {
    const result = await run(`${base}/moved`);
    expect(result.startsWith(`URL: ${base}/page\nTitle: Tides & Moons`)).toBe(true);
    const followed = seen.filter((request) => request.url === '/page').at(-1);
    expect(followed?.headers.cookie).toBeUndefined();
    expect(await failure(`${base}/to-file`)).toBe('Only http and https URLs can be fetched, not file.');
    expect(await failure(`${base}/loop`)).toBe(`More than 5 redirects from ${base}/loop.`);
  });

  it('reads at most 1 MB, in the page’s character set', async () => {
    const big = await run(`${base}/big`);
    expect(big.length).toBeLessThan(1024 * 1024 + 200);
    expect(big.endsWith('[Only the first 1 MB of the page was read.]')).toBe(true);
    expect(await run(`${base}/latin1`)).toBe(`URL: ${base}/latin1\n\ncafé`);
  });

  it('says what is wrong: not text, an HTTP error, a bad URL, nothing listening', async () => {
    expect(await failure(`${base}/png`)).toBe(`${base}/png is not a text page (image/png).`);
    expect(await failure(`${base}/missing`)).toBe(`${base}/missing answered HTTP 404.`);
    expect(await failure('not a url')).toBe('"not a url" is not a valid URL.');
    expect(await failure('ftp://example.org/file')).toBe('Only http and https URLs can be fetched, not ftp.');
    expect(await failure('http://user:secret@example.org/')).toBe(
      'URLs with a user name or password are not fetched.',
    );
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await failure(`http://127.0.0.1:${port}/`)).toBe(`http://127.0.0.1:${port}/ cannot be reached.`);
  });

  it('gives up after 10 seconds', async () => {
    const started = Date.now();
    expect(await failure(`${base}/slow`)).toBe(`${base}/slow took longer than 10 s.`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_900);
  }, 30_000);

  it('refuses private addresses unless the operator allows them', async () => {
    const guarded = fetchUrlTool(false);
    await expect(guarded({ url: `${base}/page` }, new AbortController().signal)).rejects.toThrow(
      /is on a private or local network \(127\.0\.0\.1\)/,
    );
  });
});

describe('text of HTML', () => {
  it('stays fast on hostile markup: unclosed tags, quotes and scripts by the hundred thousand', () => {
    const hostile = [
      '<a '.repeat(100_000),
      '<b "'.repeat(50_000),
      '<script>'.repeat(20_000),
      '<!--'.repeat(20_000),
    ];
    for (const html of hostile) {
      const started = performance.now();
      htmlToText(html);
      expect(performance.now() - started).toBeLessThan(1_000);
    }
  });

  it('decodes numeric references safely and keeps unknown ones as written', () => {
    expect(htmlToText('<p>&#65;&#x1F600;&#0;&#xD800;&unknown; &lt;b&gt;</p>').text).toBe(
      'A😀\uFFFD\uFFFD&unknown; <b>',
    );
  });
});
