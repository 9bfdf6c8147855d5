import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser';
import { type RunningServer, startServer } from '../support/server';

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

  it('registers the worker once stable, and the app shell then opens offline', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/landing`);
    await page.getByRole('heading', { name: 'Parley', level: 1 }).waitFor();
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toBe(`${server.url}/`);
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { name: 'Parley', level: 1 }).waitFor();
    await page.goto(`${server.url}/register`);
    await page.getByLabel('Username').waitFor();
    await context.close();
  });

  it('passes its own content security policy: no violation on the way through the app', async () => {
    const page = await browser.newPage();
    await page.addInitScript(() => {
      const violations: string[] = [];
      Object.assign(window, { violations });
      document.addEventListener('securitypolicyviolation', (event) =>
        violations.push(`${event.violatedDirective} ${event.blockedURI}`),
      );
    });
    for (const path of ['/landing', '/register', '/login?language=de', '/forgot', '/welcome']) {
      await page.goto(`${server.url}${path}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual(
        [],
      );
    }
    await page.close();
  });
});
