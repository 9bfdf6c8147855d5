import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser';
import { type RunningServer, startServer } from '../support/server';

describe('organizations from the host and languages, in Chromium against npm start', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    // At level info, as `npm start` runs it: the address it tells a person to open is logged.
    server = await startServer({ LOG_LEVEL: 'info' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the organization of the host name: acme.parley.localhost is Acme', async () => {
    const page = await browser.newPage();
    await page.goto(`http://acme.parley.localhost:${server.port}/landing`);
    await page.getByRole('link', { name: 'Acme Corporation' }).waitFor();
    expect(
      await page.evaluate(() => JSON.parse(localStorage.getItem('currentOrganization') ?? 'null')),
    ).toMatchObject({
      subdomain: 'acme',
    });
    await page.getByRole('link', { name: 'Register' }).waitFor();
    await page.close();
  });

  it('logs http://localhost:PORT, and the IP address 127.0.0.1 shows the landing page and logs in', async () => {
    expect(server.output()).toContain(`Server listening at http://localhost:${server.port}`);
    expect(server.output()).not.toContain(`127.0.0.1:${server.port}`);

    // An IP address has no organization label: it stands for the default organization, as localhost.
    const page = await browser.newPage();
    const lookups: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/organization/')) lookups.push(request.url());
    });
    await page.goto(`http://127.0.0.1:${server.port}/`);
    await page.waitForURL(/\/landing/);
    await page.getByRole('link', { name: 'Log in' }).click();
    await page.getByLabel('Email').fill('demo@parley.test');
    await page.getByLabel('Password').fill('parley-demo-1');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/list$/);
    await page.getByRole('heading', { name: /Demo/ }).waitFor();
    // Only the default organization's brand colour is asked for, once logged in: never organization 127.
    expect(lookups.every((url) => url.endsWith('/api/v1/organization/app'))).toBe(true);
    await page.close();
  });

  it('blocks an unknown organization host without a message', async () => {
    const page = await browser.newPage();
    const lookup = page.waitForResponse((response) =>
      response.url().includes('/api/v1/organization/nowhere'),
    );
    await page.goto(`http://nowhere.parley.localhost:${server.port}/landing`);
    expect((await lookup).status()).toBe(404);
    await page.getByRole('banner').waitFor();
    expect(await page.getByRole('link', { name: 'Register' }).count()).toBe(0);
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('currentOrganization'))).toBeNull();
    await page.close();
  });

  it('?language=de stores German, reloads into the built-in catalog, and a second load asks nothing', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const translateCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/v1/translate')) translateCalls.push(request.postData() ?? '');
    });

    await page.goto(`${server.url}/landing?language=de`);
    await page.waitForURL(`${server.url}/landing`);
    await page.getByRole('link', { name: 'Anmelden' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('de');
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    expect(translateCalls.length).toBeGreaterThan(0);

    // The translations are written back to IndexedDB in batches; wait until they are there.
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            new Promise<number>((resolve) => {
              const open = indexedDB.open('TranslationCache', 1);
              open.onsuccess = () => {
                const count = open.result.transaction('translations').objectStore('translations').count();
                count.onsuccess = () => resolve(count.result);
              };
            }),
        ),
      )
      .toBeGreaterThanOrEqual(translateCalls.length);

    translateCalls.length = 0;
    await page.reload();
    await page.getByRole('link', { name: 'Anmelden' }).waitFor();
    await page.getByRole('link', { name: 'Registrieren' }).waitFor();
    expect(translateCalls).toEqual([]);
    await context.close();
  });

  it('drops a ?language= it does not know and keeps the current language: no store, no reload', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/landing?language=de`);
    await page.waitForURL(`${server.url}/landing`);
    await page.getByRole('link', { name: 'Anmelden' }).waitFor();

    for (const unusable of ['xx', 'en_US', '%3Cb%3E']) {
      let loads = 0;
      const countLoad = () => {
        loads += 1;
      };
      page.on('load', countLoad);
      await page.goto(`${server.url}/login?language=${unusable}&from=mail`);
      await page.getByRole('heading', { name: 'Anmelden' }).waitFor();
      await expect.poll(() => page.url()).toBe(`${server.url}/login?from=mail`);
      expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('de');
      expect(loads).toBe(1);
      page.off('load', countLoad);
    }

    // A well-formed tag of a known language is taken, in any case and with a region.
    await page.goto(`${server.url}/landing?language=FR-ca`);
    await page.waitForURL(`${server.url}/landing`);
    await page.getByRole('link', { name: 'Se connecter' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('fr');
    await context.close();
  });

  it('writes right-to-left languages right to left', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/landing?language=he`);
    await page.waitForURL(`${server.url}/landing`);
    await expect.poll(() => page.getAttribute('html', 'dir')).toBe('rtl');
    expect(await page.getAttribute('html', 'lang')).toBe('he');
    await context.close();
  });
});
