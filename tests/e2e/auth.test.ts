import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser';
import { readCode } from '../support/outbox';
import { type RunningServer, startServer } from '../support/server';

describe('signing up, out and in, in Chromium against npm start', () => {
  let server: RunningServer;
  let browser: Browser;
  const email = `ada.${Date.now()}@example.org`;
  const password = 'correct horse battery staple';

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function logIn(page: Page) {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
  }

  it('signs up with the code from the outbox, lands on the list, logs out and back in', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/register`);
    await page.getByLabel('Username').fill(`ada${Date.now()}`);
    await page.getByLabel('Display name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByRole('status').filter({ hasText: 'We emailed you a 6-digit code' }).waitFor();
    await page.getByLabel('One-time code').fill(await readCode(server.dataDir, email));
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.waitForURL(/\/list$/);
    await page.getByRole('heading', { name: /Ada Lovelace/ }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toMatch(/^ey/);

    await page.getByRole('button', { name: 'Profile' }).click();
    await page.getByRole('button', { name: 'Log out', exact: true }).click();
    await page.waitForURL(/\/landing$/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

    await page.getByRole('link', { name: 'Log in' }).click();
    await logIn(page);
    await page.waitForURL(/\/list$/);
    await page.getByRole('heading', { name: /Ada Lovelace/ }).waitFor();
    await page.close();
  });

  it('sends a logged-out visitor to landing with returnUrl and back after login', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/list?from=mail`);
    await page.waitForURL(/\/landing\?returnUrl=/);
    expect(new URL(page.url()).searchParams.get('returnUrl')).toBe('/list?from=mail');

    await page.getByRole('link', { name: 'Log in' }).click();
    await logIn(page);
    await page.waitForURL(/\/list\?from=mail$/);
    await page.close();
  });

  it('refuses an invalid email with an Error alert and no call', async () => {
    const page = await browser.newPage();
    const signups: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/auth/signup')) signups.push(request.url());
    });
    await page.goto(`${server.url}/register`);
    await page.getByLabel('Username').fill('grace');
    await page.getByLabel('Display name').fill('Grace Hopper');
    await page.getByLabel('Email').fill('grace at navy');
    await page.getByLabel('Password').fill(password);
    await page.getByLabel('One-time code').fill('123456');
    await page.getByRole('button', { name: 'Create account' }).click();

    const alert = page.getByRole('alertdialog', { name: 'Error' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Invalid email address');
    await alert.getByRole('button', { name: 'OK' }).click();
    await alert.waitFor({ state: 'detached' });
    expect(signups).toEqual([]);
    await page.close();
  });

  it('shows the server error of a failed login in an Error alert', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Log in' }).click();
    const alert = page.getByRole('alertdialog', { name: 'Error' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Invalid email or password');
    await page.close();
  });
});
