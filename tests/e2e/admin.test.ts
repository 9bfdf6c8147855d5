import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenAiDouble, startOpenAiDouble } from '../support/openai-double';
import { launchBrowser } from './support/browser';
import { readCode } from './support/outbox';
import { type RunningServer, startServer } from './support/server';

/** The organization's owner, as the seed (README) makes them for `app`. */
const seededOwner = { email: 'admin@parley.test', password: 'parley-admin-1' };

describe('an organization run from its admin area, in Chromium against npm start', () => {
  let server: RunningServer;
  let model: OpenAiDouble;
  let browser: Browser;
  let owner: Page;
  let member: Page;
  const stamp = Date.now();
  const invited = {
    email: `poetry.fan.${stamp}@example.org`,
    displayName: 'Ada Byron',
    username: `ada${stamp}`,
  };

  beforeAll(async () => {
    model = await startOpenAiDouble();
    // The model double listens on loopback: private provider addresses are allowed for this test only.
    server = await startServer({ ALLOW_PRIVATE_PROVIDER_URLS: 'true', BUILTIN_TOKEN_DELAY_MS: '0' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await model?.close();
  });

  const newPage = async () =>
    (await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true })).newPage();
  const adminSection = async (page: Page, name: string) => {
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name }).click();
    await page.getByRole('heading', { name, level: 1 }).waitFor();
  };

  /**
   * The organization and its owner. Today the seeded owner of `app`; the operator's command
   * (`npm run parley -- org create …`, then the owner's password from the mailed code) takes this step's place.
   */
  async function organizationOwner(): Promise<Page> {
    const page = await newPage();
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill(seededOwner.email);
    await page.getByLabel('Password', { exact: true }).fill(seededOwner.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/list$/);
    return page;
  }

  it('the owner opens the admin area from the profile', async () => {
    owner = await organizationOwner();
    await owner.getByRole('button', { name: 'Profile' }).click();
    await owner.getByRole('complementary').getByRole('link', { name: 'Admin' }).click();
    await owner.waitForURL(/\/admin$/);
    await owner.getByRole('heading', { name: 'Bots', level: 1 }).waitFor();
    expect(await owner.getByRole('link', { name: 'Bots' }).getAttribute('aria-current')).toBe('page');
  });

  it('creates a category and an OpenAI-compatible provider, its key shown masked and its models listed', async () => {
    await adminSection(owner, 'Categories');
    await owner.getByLabel('New category').fill('Poetry');
    await owner.getByRole('button', { name: 'Create' }).click();
    await owner.getByRole('button', { name: 'Rename Poetry' }).waitFor();

    await adminSection(owner, 'Providers');
    await owner.getByRole('button', { name: 'Add provider' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Add provider' });
    await dialog.getByLabel('Name').fill('Model double');
    await dialog.getByLabel('Base URL').fill(model.url);
    await dialog.getByLabel('API key').fill('sk-test-secret-1234');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await owner.getByRole('heading', { name: 'Model double' }).waitFor();
    // Focus came back from the closed dialog; the key is never shown again, only its end.
    await expect.poll(() => owner.locator('.card code').allTextContents()).toContain('••••1234');
    expect(await owner.content()).not.toContain('sk-test-secret');
    await owner.getByRole('button', { name: 'Models: Model double' }).click();
    await owner.getByText('double-2').waitFor();
  });

  it('creates a bot on that provider and tries it without charge', async () => {
    await adminSection(owner, 'Bots');
    await owner.getByRole('link', { name: 'New bot' }).click();
    await owner.getByRole('heading', { name: 'New bot', level: 1 }).waitFor();
    // Problems show next to their fields before anything is sent.
    await owner.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => owner.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => owner.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('name');

    await owner.getByLabel('Name').fill('Poet');
    await owner.getByLabel('Description').fill('Writes a verse about anything.');
    await owner.getByLabel('Provider').selectOption({ label: 'Model double' });
    await owner.getByLabel('Model').fill('double-1');
    await owner.getByLabel('System prompt').fill('Answer in verse.');
    await owner.getByLabel('Price per reply').fill('0.5');
    await owner.getByLabel('Poetry').check();
    await owner.getByRole('button', { name: 'Save' }).click();
    await owner.waitForURL(/\/admin\/bots\/[0-9a-f-]{36}$/);
    await owner.getByRole('status').getByText('Saved').waitFor();

    model.script((request) => ({ chunks: ['Roses for: ', request.messages.at(-1)?.content ?? ''] }));
    await owner.getByLabel('Message to try').fill('the sea');
    await owner.getByRole('button', { name: 'Send' }).click();
    await expect
      .poll(() => owner.locator('.try-line.bot').last().textContent())
      .toContain('Roses for: the sea');
    // The bot's settings went to the provider: its model and its system prompt.
    const sent = model.requests.at(-1);
    expect(sent?.model).toBe('double-1');
    expect(sent?.messages[0]).toEqual({ role: 'system', content: 'Answer in verse.' });
  });

  it('invites a member, who signs up with the mailed code', async () => {
    await adminSection(owner, 'Members');
    await owner.getByRole('button', { name: 'Invite' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Invite someone' });
    await dialog.getByLabel('Email').fill(invited.email);
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await owner.getByRole('status').getByText(`Invitation sent to ${invited.email}`).waitFor();
    const invitation = await readCode(server.dataDir, invited.email);

    member = await newPage();
    await member.goto(`${server.url}/register`);
    await member.getByLabel('Username').fill(invited.username);
    await member.getByLabel('Display name').fill(invited.displayName);
    await member.getByLabel('Email').fill(invited.email);
    await member.getByLabel('Password').fill('a long enough password');
    await member.getByRole('button', { name: 'Send code' }).click();
    // Asking for a code on the sign-up page mails a new one; the newest is the one that works.
    let code = invitation;
    await expect
      .poll(async () => {
        code = await readCode(server.dataDir, invited.email);
        return code !== invitation;
      })
      .toBe(true);
    await member.getByLabel('One-time code').fill(code);
    await member.getByRole('button', { name: 'Create account' }).click();
    await member.getByRole('heading', { name: `Hello, ${invited.displayName}` }).waitFor();
  });

  it('the member chats with the new bot and is charged for the reply', async () => {
    await member.getByRole('link', { name: 'Chat Poet' }).click();
    await member.waitForURL(/\/topics\/new\?bot=/);
    await member.getByLabel('Message').fill('the moon');
    await member.getByLabel('Message').press('Enter');
    await expect
      .poll(() => member.locator('.message.bot').last().textContent())
      .toContain('Roses for: the moon');
    await member.getByRole('button', { name: 'Profile' }).click();
    const panel = member.getByRole('complementary');
    await panel.getByRole('button', { name: 'Order history' }).click();
    await expect
      .poll(() => panel.locator('.transactions').textContent())
      .toMatch(/-\s?€?0\.50|−\s?€?0\.50|-0\.5/);
  });

  it('the admin grants credit, and sees it in the usage chart and the audit log', async () => {
    await adminSection(owner, 'Members');
    await owner.getByLabel('Search members').fill('Ada Byron');
    await owner.getByRole('button', { name: 'Credit Ada Byron' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Grant or deduct credit' });
    await dialog.getByRole('button', { name: 'Book credit' }).click();
    await expect.poll(() => dialog.getByLabel('Amount').getAttribute('aria-invalid')).toBe('true');
    await dialog.getByLabel('Amount').fill('5');
    await dialog.getByLabel('Note').fill('Welcome to the poetry club');
    await dialog.getByRole('button', { name: 'Book credit' }).click();
    await owner
      .getByRole('status')
      .getByText(/New balance of Ada Byron/)
      .waitFor();
    await expect.poll(() => owner.getByRole('dialog').count()).toBe(0);

    await adminSection(owner, 'Usage');
    await owner.getByRole('img', { name: 'Spend per day' }).waitFor();
    expect(await owner.locator('.usage-chart .bar title').count()).toBe(90);
    const perBot = owner.getByRole('table', { name: 'Per bot' });
    await perBot.getByRole('row', { name: /Poet/ }).waitFor();
    await owner.getByRole('table', { name: 'Per member' }).getByText('Ada Byron').waitFor();

    await adminSection(owner, 'Audit log');
    await expect
      .poll(() => owner.locator('.audit-table td:nth-child(3)').allTextContents())
      .toEqual(
        expect.arrayContaining([
          'member.credit',
          'member.invite',
          'bot.create',
          'provider.create',
          'category.create',
        ]),
      );
    // The member sees the credit with its note.
    await member.reload();
    await member.getByRole('button', { name: 'Profile' }).click();
    const panel = member.getByRole('complementary');
    await panel.getByRole('button', { name: 'Order history' }).click();
    await panel.getByText('Welcome to the poetry club').waitFor();
  });

  it('a member who opens /admin is told it is for admins only', async () => {
    await member.goto(`${server.url}/admin`);
    await member.getByRole('heading', { name: 'Admins only' }).waitFor();
    expect(await member.getByRole('navigation', { name: 'Admin' }).count()).toBe(0);
  });
});
