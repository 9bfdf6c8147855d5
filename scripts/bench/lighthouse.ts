import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { loginOwner } from '../../tests/server/admin/support';
import { call, type TestServer } from '../../tests/support/app';
import { chromiumFlags, chromiumPath } from '../../tests/support/browser';
import { startServer } from '../../tests/support/server';
import { loadLine } from './stats';

const flags = ['--headless=new', ...chromiumFlags];
const categories = ['performance', 'accessibility', 'best-practices', 'seo'];
/** Issue 32's target: every screen. */
const performanceTarget = 95;

/** A Chromium profile for Lighthouse, with the app's token in local storage when `token` is given. */
async function profileWith(server: string, token?: string): Promise<string> {
  const profile = mkdtempSync(join(tmpdir(), 'parley-lighthouse-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    args: flags,
  });
  const page = await context.newPage();
  await page.goto(`${server}/landing`);
  if (token) await page.evaluate((value) => localStorage.setItem('token', value), token);
  await context.close();
  return profile;
}

/**
 * Lighthouse (mobile, its default throttling) on Debian's Chromium against the compiled server, on
 * the main screens: those of a visitor (landing, login, sign-up, a shared conversation) in a fresh
 * profile, those of the organization's owner (home, a conversation, a new chat, the admin area) in a
 * logged-in one; Lighthouse is told to keep its storage.
 */
export async function printLighthouseFigures(): Promise<void> {
  const server = await startServer({ RATE_LIMIT_API_PER_MINUTE: '100000' }, { compiled: true });
  const profiles: string[] = [];
  try {
    const client = server as unknown as TestServer;
    const owner = await loginOwner(client, 'app');
    const bots = await call(client, '/api/v1/bot', { token: owner.token });
    const eliza = bots.body.find((bot: { name: string }) => bot.name === 'ELIZA')._id;
    const topic = await call(client, '/api/v1/topic', { token: owner.token, body: { bot: eliza } });
    const response = await fetch(`${server.url}/api/v1/topic/${topic.body._id}/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}` },
      body: JSON.stringify({ text: 'Men are all alike.' }),
    });
    await response.text();
    const share = await call(client, `/api/v1/topic/${topic.body._id}/share`, {
      token: owner.token,
      body: { audience: 'public' },
    });
    if (share.status !== 200) throw new Error(`share failed: ${JSON.stringify(share.body)}`);

    const visitor = await profileWith(server.url);
    const member = await profileWith(server.url, owner.token);
    profiles.push(visitor, member);
    const pages = [
      ['landing', '/landing', visitor],
      ['login', '/login', visitor],
      ['sign-up', '/register', visitor],
      ['a shared conversation', `/s/${share.body._id}`, visitor],
      ['home', '/list', member],
      ['a conversation', `/topics/${topic.body._id}`, member],
      ['a new chat', `/topics/new?bot=${eliza}`, member],
      ['admin (bots)', '/admin', member],
    ];
    console.log(
      `## Lighthouse 12 (mobile, default throttling, Debian Chromium, compiled server; target: performance ≥ ${performanceTarget} on every screen)`,
    );
    for (const [name, path, profile] of pages) {
      const browser = await launch({ chromePath: chromiumPath, chromeFlags: flags, userDataDir: profile });
      try {
        const result = await lighthouse(`${server.url}${path}`, {
          port: browser.port,
          onlyCategories: categories,
          disableStorageReset: true,
          logLevel: 'error',
        });
        const scores = categories.map(
          (category) => `${category} ${Math.round((result?.lhr.categories[category]?.score ?? 0) * 100)}`,
        );
        const audits = result?.lhr.audits;
        const metric = (id: string) => audits?.[id]?.displayValue ?? '?';
        // Where the page ended: a logged-out redirect to landing would show here.
        const shown = new URL(result?.lhr.finalDisplayedUrl ?? path, server.url).pathname;
        console.log(
          `${name} (${shown}): ${scores.join(', ')}; FCP ${metric('first-contentful-paint')}, LCP ${metric('largest-contentful-paint')}, TBT ${metric('total-blocking-time')}, CLS ${metric('cumulative-layout-shift')} (${loadLine()})`,
        );
      } finally {
        await browser.kill();
      }
    }
  } finally {
    await server.stop();
    for (const profile of profiles) rmSync(profile, { recursive: true, force: true });
  }
}
