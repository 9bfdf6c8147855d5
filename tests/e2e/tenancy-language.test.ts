import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import arabic from '../../server/i18n/catalogs/ar.json';
import { botIds, call, signUp, type TestServer } from '../support/app';
import { launchBrowser } from '../support/browser';
import { layoutProblems } from '../support/fit';
import { type RunningServer, startServer } from '../support/server';

/** A title that takes more than a line at 320 px: its start must stay in sight, its end shortened. */
const englishTitle = 'I am unhappy at work and my boss never listens to anything I say about it.';

/**
 * How a one-line text shows: its direction, whether it is shortened, whether its first word starts
 * inside its box and lies in it whole (a title shortened at its start loses exactly that word).
 */
const lineShown = (line: Locator) =>
  line.evaluate((element) => {
    const first = document.createTreeWalker(element, NodeFilter.SHOW_TEXT).nextNode() as Text;
    const space = first.data.indexOf(' ');
    const range = document.createRange();
    range.setStart(first, 0);
    range.setEnd(first, space > 0 ? space : first.data.length);
    const word = range.getBoundingClientRect();
    const box = element.getBoundingClientRect();
    return {
      direction: getComputedStyle(element).direction,
      shortened: element.scrollWidth > element.clientWidth,
      startShown: word.width > 0 && word.left >= box.left - 0.5,
      firstWordShown: word.width > 0 && word.left >= box.left - 0.5 && word.right <= box.right + 0.5,
    };
  });

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

  describe('a conversation in another language, with no translation provider', () => {
    let api: TestServer;
    let token: string;
    let calculation: string;
    let complaint: string;

    beforeAll(async () => {
      api = server as unknown as TestServer;
      const bots = await botIds(api);
      token = (await signUp(api)).token;
      /** A conversation with its first message answered; its title is the message. */
      const chat = async (bot: string, text: string) => {
        const topic = (await call(api, '/api/v1/topic', { token, body: { bot: bots[bot] } })).body._id;
        const answer = await fetch(`${server.url}/api/v1/topic/${topic}/message`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ text }),
        });
        await answer.text();
        return topic as string;
      };
      calculation = await chat('Calculator', '3*3');
      complaint = await chat('ELIZA', englishTitle);
    });

    /** A page of the user's in `language`, at that width. */
    const open = async (language: string, width: number) => {
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      await context.addInitScript(
        ([value, chosen]) => {
          localStorage.setItem('token', value);
          localStorage.setItem('language', chosen);
        },
        [token, language],
      );
      return { context, page: await context.newPage() };
    };

    it('offers no Translate or Translate all in German: nothing could translate a message', async () => {
      const { context, page } = await open('de', 1280);
      const organization = page.waitForResponse((response) =>
        response.url().includes('/api/v1/organization/'),
      );
      await page.goto(`${server.url}/topics/${complaint}`);
      expect((await (await organization).json()).messageTranslation).toBe(false);
      const reply = page.locator('.message.bot').last();
      // The chat is in German (its buttons translated) and whole: its bar and the reply's actions.
      await reply.getByRole('button', { name: /^Kopieren/ }).waitFor();
      await page
        .locator('.chat-bar')
        .getByRole('button', { name: 'Aktionen für die Unterhaltung' })
        .waitFor();
      expect(await page.getByRole('button', { name: /^(Alles übersetzen|Translate all)$/ }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /^(Übersetzen|Translate)$/ }).count()).toBe(0);
      await context.close();
    });

    it.each([1280, 375, 320])(
      'writes an English message and title in the Arabic page left to right, shortened at their end (%i px)',
      async (width) => {
        const { context, page } = await open('ar', width);
        if (width === 1280) {
          // "3*3 = 9", not "9 = 3*3": a formula reads left to right in any page, at any width.
          await page.goto(`${server.url}/topics/${calculation}`);
          const result = page.locator('.message.bot .markdown-block').last();
          await result.getByText('9').waitFor();
          const order = await result.evaluate((block) => ({
            direction: getComputedStyle(block).direction,
            code: block.querySelector('code')?.getBoundingClientRect().left ?? 0,
            result: block.querySelector('strong')?.getBoundingClientRect().left ?? 0,
          }));
          expect(order.direction).toBe('ltr');
          expect(order.code).toBeLessThan(order.result);
        }
        await page.goto(`${server.url}/topics/${complaint}`);
        await expect.poll(() => page.getAttribute('html', 'dir')).toBe('rtl');
        await page.locator('.message.bot').last().getByText('I am sorry to hear you are unhappy.').waitFor();
        for (const body of [
          page.locator('.message.user .user-text'),
          page.locator('.message.bot .markdown-block'),
        ])
          expect(await body.last().evaluate((element) => getComputedStyle(element).direction)).toBe('ltr');
        // The chat's title, shortened on a phone: its first word in sight.
        const header = await lineShown(page.locator('.chat-bar h1'));
        expect(header).toMatchObject({ direction: 'ltr', firstWordShown: true });
        if (width < 768) expect(header.shortened).toBe(true);
        // The brand, Parley, in the Arabic header: shortened at 320 px, at its end.
        expect(await lineShown(page.locator('.brand > span'))).toMatchObject({
          direction: 'ltr',
          startShown: true,
        });
        // The sidebar's title (in the drawer on a phone), shortened at its end.
        if (width < 768) await page.getByRole('button', { name: arabic.Conversations, exact: true }).click();
        const row = page.locator('.conversation-title').filter({ hasText: 'I am unhappy' });
        await row.waitFor();
        expect(await lineShown(row)).toMatchObject({
          direction: 'ltr',
          shortened: true,
          firstWordShown: true,
        });
        expect(await layoutProblems(page)).toEqual([]);
        await context.close();
      },
    );
  });
});
