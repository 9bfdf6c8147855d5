import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { call, signUp, type TestServer } from '../../tests/support/app';
import { chromiumFlags, chromiumPath } from '../../tests/support/browser';
import { startServer } from '../../tests/support/server';

const flags = ['--headless=new', ...chromiumFlags];
const categories = ['performance', 'accessibility', 'best-practices', 'seo'];

/**
 * Lighthouse (mobile, its default throttling) on Debian's Chromium against the compiled server:
 * the landing page, home and a conversation. A logged-in profile is prepared first, and Lighthouse
 * is told to keep its storage.
 */
export async function printLighthouseFigures(): Promise<void> {
  const server = await startServer({ RATE_LIMIT_API_PER_MINUTE: '100000' }, { compiled: true });
  const profile = mkdtempSync(join(tmpdir(), 'parley-lighthouse-'));
  try {
    const user = await signUp(server as unknown as TestServer);
    const bots = await call(server as unknown as TestServer, '/api/v1/bot', { token: user.token });
    const eliza = bots.body.find((bot: { name: string }) => bot.name === 'ELIZA')._id;
    const topic = await call(server as unknown as TestServer, '/api/v1/topic', {
      token: user.token,
      body: { bot: eliza },
    });
    const response = await fetch(`${server.url}/api/v1/topic/${topic.body._id}/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      body: JSON.stringify({ text: 'Men are all alike.' }),
    });
    await response.text();

    // The app keeps its token in local storage: put it in a profile Lighthouse's Chromium will use.
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath,
      args: flags,
    });
    const page = await context.newPage();
    await page.goto(`${server.url}/landing`);
    await page.evaluate((token) => localStorage.setItem('token', token), user.token);
    await context.close();

    const pages = [
      ['landing', `${server.url}/landing`],
      ['home', `${server.url}/list`],
      ['a conversation', `${server.url}/topics/${topic.body._id}`],
    ];
    console.log('## Lighthouse 12 (mobile, default throttling, Debian Chromium, compiled server)');
    for (const [name, url] of pages) {
      const browser = await launch({ chromePath: chromiumPath, chromeFlags: flags, userDataDir: profile });
      try {
        const result = await lighthouse(url, {
          port: browser.port,
          onlyCategories: categories,
          disableStorageReset: true,
          logLevel: 'error',
        });
        const scores = categories.map(
          (category) => `${category} ${Math.round((result?.lhr.categories[category]?.score ?? 0) * 100)}`,
        );
        // Where the page ended: a logged-out redirect to landing would show here.
        const shown = new URL(result?.lhr.finalDisplayedUrl ?? url).pathname;
        console.log(`${name} (${shown}): ${scores.join(', ')}`);
      } finally {
        await browser.kill();
      }
    }
  } finally {
    await server.stop();
    rmSync(profile, { recursive: true, force: true });
  }
}
