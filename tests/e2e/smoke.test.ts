import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser';
import { type RunningServer, startServer } from './support/server';

describe('production server in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('renders the landing page with the brand as title', async () => {
    const page = await browser.newPage();
    await page.goto(server.url);
    await expect.poll(() => page.url()).toContain('/landing');
    expect(await page.title()).toBe('Parley');
    await page.getByRole('heading', { name: 'Parley', level: 1 }).waitFor();
    await page.close();
  });

  it('reaches the same server through a tenant host name', async () => {
    const page = await browser.newPage();
    const response = await page.goto(`http://acme.parley.localhost:${server.port}/health`);
    expect(response?.status()).toBe(200);
    expect(await response?.json()).toEqual({ status: 'ok' });
    await page.goto(`http://acme.parley.localhost:${server.port}/`);
    expect(await page.title()).toBe('Parley');
    await page.close();
  });

  it('deep links fall back to the app while unknown API paths answer 404 JSON', async () => {
    const deep = await fetch(`${server.url}/register`);
    expect(deep.status).toBe(200);
    expect(await deep.text()).toContain('<title>Parley</title>');
    const api = await fetch(`${server.url}/api/v1/nothing-here`);
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ error: 'Not found' });
  });
});
