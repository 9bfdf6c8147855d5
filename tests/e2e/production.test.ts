import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../support/server';

/** The server as `npm start` runs it: compiled JavaScript serving the precompressed build. */
describe('the production server', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({}, { compiled: true });
  });
  afterAll(() => server.stop());

  it('serves hashed assets precompressed and cached for a year, pages revalidated', async () => {
    const script = readdirSync('dist/assets').find((name) => name.endsWith('.js') && !name.endsWith('.map'));
    for (const [accepted, encoding] of [
      ['br, gzip', 'br'],
      ['gzip', 'gzip'],
    ]) {
      const response = await fetch(`${server.url}/assets/${script}`, {
        headers: { 'accept-encoding': accepted },
      });
      expect(response.headers.get('content-encoding')).toBe(encoding);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect((await response.text()).length).toBeGreaterThan(100);
    }
    const page = await fetch(`${server.url}/list`);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(await page.text()).toContain('<title>Parley</title>');
  });

  it('serves /robots.txt as a text file and answers /ready', async () => {
    const robots = await fetch(`${server.url}/robots.txt`);
    expect(robots.headers.get('content-type')).toContain('text/plain');
    expect(await robots.text()).toContain('User-agent: *');
    expect(await (await fetch(`${server.url}/ready`)).json()).toEqual({ status: 'ready' });
  });
});
