import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocking, noViolations, runAxe } from '../support/axe';
import { launchBrowser } from '../support/browser';
import { layoutProblems } from '../support/fit';
import { type OpenAiDouble, startOpenAiDouble, textOf } from '../support/openai-double';
import { type OperatorRun, parley } from '../support/operator';
import { readCode, readMail } from '../support/outbox';
import { type RunningPostgres, startPostgres } from '../support/postgres';
import { type RunningServer, startServer } from '../support/server';

/** The organization the operator creates, and its owner. */
const beta = { subdomain: 'beta', name: 'Beta' };
const betaOwner = { email: 'owner@beta.test', displayName: 'owner', password: 'beta owner password 1' };

describe('an organization the operator creates and its admins run, in Chromium against a server on PostgreSQL', () => {
  let postgres: RunningPostgres;
  let server: RunningServer;
  /** What the operator's command runs with: the server's own database, secret and outbox. */
  let operatorEnv: Record<string, string>;
  let model: OpenAiDouble;
  let browser: Browser;
  let owner: Page;
  let member: Page;
  /** Beta's address: Chromium resolves every *.localhost name to loopback. */
  let betaUrl: string;
  const stamp = Date.now();
  const invited = {
    email: `poetry.fan.${stamp}@example.org`,
    displayName: 'Ada Byron',
    username: `ada${stamp}`,
  };

  beforeAll(async () => {
    // PostgreSQL, so the operator's command works while the server runs, as in production.
    [model, postgres] = await Promise.all([startOpenAiDouble(), startPostgres()]);
    const shared = { DATABASE_URL: postgres.url, JWT_SECRET: 'shared by the server and the operator' };
    // The model double listens on loopback: private provider addresses are allowed for this test only.
    server = await startServer({
      ...shared,
      ALLOW_PRIVATE_PROVIDER_URLS: 'true',
      BUILTIN_TOKEN_DELAY_MS: '0',
    });
    // No SMTP_URL: the command mails into the outbox of the server's data folder, which the test reads.
    operatorEnv = { ...shared, DATA_DIR: server.dataDir };
    betaUrl = `http://${beta.subdomain}.parley.localhost:${server.port}`;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    postgres?.stop();
    await model?.close();
  });

  const operator = async (args: string[]): Promise<OperatorRun> => {
    const run = await parley(args, operatorEnv);
    expect(run.code, `npm run parley -- ${args.join(' ')}\n${run.out}\n${run.err}`).toBe(0);
    return run;
  };
  const organization = (subdomain: string) => fetch(`${server.url}/api/v1/organization/${subdomain}`);
  const newPage = async () =>
    (await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true })).newPage();
  const adminSection = async (page: Page, name: string) => {
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name }).click();
    await page.getByRole('heading', { name, level: 1 }).waitFor();
  };
  const logIn = async (page: Page, email: string, password: string) => {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
  };
  /** The operator's mail to the new owner: its one-time code. */
  let operatorCode: string;

  it('the operator creates beta from the command line; the running server serves it at once', async () => {
    expect((await organization(beta.subdomain)).status).toBe(404);
    const created = await operator([
      'org',
      'create',
      beta.subdomain,
      '--name',
      beta.name,
      '--owner',
      betaOwner.email,
    ]);
    expect(created.out).toMatch(
      /Created the organization beta \(Beta\)\. Its owner owner@beta\.test was mailed/,
    );
    operatorCode = await readCode(server.dataDir, betaOwner.email);

    const list = await operator(['org', 'list']);
    expect(list.out).toMatch(/^SUBDOMAIN\s+NAME\s+STATUS\s+MEMBERS\s+OWNERS$/m);
    expect(list.out).toMatch(/^beta\s+Beta\s+active\s+1\s+owner@beta\.test$/m);
    // The node had looked beta up before it existed; the command's notification made it look again.
    await expect.poll(async () => (await organization(beta.subdomain)).status).toBe(200);
    expect(await (await organization(beta.subdomain)).json()).toMatchObject({
      subdomain: 'beta',
      name: 'Beta',
    });
  });

  it('its owner chooses a password with a mailed code at beta’s address, logs in and opens the admin area', async () => {
    owner = await newPage();
    await owner.goto(`${betaUrl}/login`);
    await owner.getByRole('link', { name: beta.name }).waitFor();
    await owner.getByRole('link', { name: 'Forgot password?' }).click();
    await owner.waitForURL(/\/forgot$/);
    await owner.getByLabel('Email').fill(betaOwner.email);
    // The operator's mail holds the code: the page takes it without mailing another.
    await owner.getByRole('button', { name: 'I already have a code' }).click();
    await owner.getByLabel('One-time code').fill(operatorCode);
    await owner.getByLabel('New password').fill(betaOwner.password);
    await owner.getByRole('button', { name: 'Set new password' }).click();
    await owner.waitForURL(/\/list$/);
    await owner.getByRole('heading', { name: `Hello, ${betaOwner.displayName}` }).waitFor();
    expect(
      await owner.evaluate(() => JSON.parse(localStorage.getItem('currentOrganization') ?? 'null')),
    ).toMatchObject({ subdomain: 'beta' });

    // The password chosen is the one that logs in.
    await owner.getByRole('button', { name: 'Profile' }).click();
    await owner.getByRole('complementary').getByRole('button', { name: 'Log out', exact: true }).click();
    await owner.waitForURL(/\/landing$/);
    await owner.goto(`${betaUrl}/login`);
    await logIn(owner, betaOwner.email, betaOwner.password);
    await owner.waitForURL(/\/list$/);

    await owner.getByRole('button', { name: 'Profile' }).click();
    await owner.getByRole('complementary').getByRole('link', { name: 'Admin' }).click();
    await owner.waitForURL(/\/admin$/);
    await owner.getByRole('heading', { name: 'Bots', level: 1 }).waitFor();
    expect(await owner.getByRole('link', { name: 'Bots' }).getAttribute('aria-current')).toBe('page');
  });

  it('takes an SVG logo, drawn as a PNG (its script gone), and shows it on the Settings screen', async () => {
    await adminSection(owner, 'Settings');
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 10"><rect width="40" height="10" fill="#1d4ed8"/><svg:script xmlns:svg="http://www.w3.org/2000/svg">alert(1)</svg:script></svg>';
    await owner
      .getByLabel('Logo')
      .setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(svg) });
    await owner.getByRole('button', { name: 'Save' }).click();
    await owner.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const preview = owner.getByRole('img', { name: 'Current logo' });
    await expect.poll(() => preview.getAttribute('src')).toMatch(/^\/api\/v1\/organization\/beta\/logo\?v=/);
    // Loaded and drawn at 512 × 128 (the SVG's 4:1), from a PNG.
    await expect
      .poll(() =>
        preview.evaluate((image: HTMLImageElement) => `${image.naturalWidth}×${image.naturalHeight}`),
      )
      .toBe('512×128');
    const served = await fetch(`${server.url}${await preview.getAttribute('src')}`);
    expect(served.headers.get('content-type')).toBe('image/png');
  });

  it('creates a category and an OpenAI-compatible provider, its key shown masked and its models listed', async () => {
    // A new organization has no feedback yet: the Feedback screen says how it comes.
    await adminSection(owner, 'Feedback');
    await owner.getByText('No feedback yet. Members rate a reply with the thumbs under it.').waitFor();
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
    // Each box beside its label: the tools', the categories', "Active".
    expect(await layoutProblems(owner), 'the bot editor').toEqual([]);
    await owner.getByRole('button', { name: 'Save' }).click();
    await owner.waitForURL(/\/admin\/bots\/[0-9a-f-]{36}$/);
    await owner.getByRole('status').getByText('Saved').waitFor();

    model.script((request) => ({ chunks: ['Roses for: ', textOf(request.messages.at(-1)?.content)] }));
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

  it('invites a member: listed as pending, resent, another revoked; the mail links to the sign-up, filled in', async () => {
    await adminSection(owner, 'Members');
    const invite = async (email: string) => {
      await owner.getByRole('button', { name: 'Invite' }).click();
      const dialog = owner.getByRole('dialog', { name: 'Invite someone' });
      await dialog.getByLabel('Email').fill(email);
      await dialog.getByRole('button', { name: 'Send invitation' }).click();
      await owner.getByRole('status').getByText(`Invitation sent to ${email}`).waitFor();
    };
    const pending = owner.getByRole('table', { name: 'Pending invitations' });
    const rowOf = (email: string) => pending.getByRole('row').filter({ hasText: email });
    await invite(invited.email);
    // Listed at once, and still there when the screen is read afresh.
    await rowOf(invited.email).waitFor();
    await owner.reload();
    await rowOf(invited.email).waitFor();
    expect(await rowOf(invited.email).getByRole('cell').first().textContent()).toBe('Member');
    const first = await readCode(server.dataDir, invited.email);

    // Resend: a new code in a new mail.
    await owner.getByRole('button', { name: `Resend ${invited.email}` }).click();
    await owner.getByRole('status').getByText('Invitation sent again').waitFor();
    let code = first;
    await expect
      .poll(async () => {
        code = await readCode(server.dataDir, invited.email);
        return code !== first;
      })
      .toBe(true);

    // Another one revoked, after a confirmation: it leaves the list.
    const revoked = `second.thoughts.${stamp}@example.org`;
    await invite(revoked);
    await owner.getByRole('button', { name: `Revoke ${revoked}` }).click();
    const confirm = owner.getByRole('alertdialog', { name: 'Revoke this invitation?' });
    await confirm.getByText(revoked).waitFor();
    // axe reads the whole page: the dialog and the pending invitations' table behind it.
    expect(blocking(await runAxe(owner, noViolations())), 'axe: revoking an invitation').toEqual([]);
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await owner.getByRole('status').getByText('Invitation revoked').waitFor();
    await expect.poll(() => rowOf(revoked).count()).toBe(0);
    expect(await rowOf(invited.email).count()).toBe(1);
    await owner.setViewportSize({ width: 320, height: 800 });
    expect(await layoutProblems(owner), 'layout: pending invitations at 320 px').toEqual([]);
    await owner.setViewportSize({ width: 1280, height: 900 });

    // The mail's link opens beta's sign-up with the address filled in; the resent code signs up.
    const mail = await readMail(server.dataDir, invited.email);
    const link = `${betaUrl}/register?email=${encodeURIComponent(invited.email)}`;
    expect(mail).toContain(`\n${link}\n`);
    expect(mail).toMatch(/The invitation expires on \w+day,? \d{1,2} \w+ \d{4} at \d\d:\d\d \(UTC\)/);
    member = await newPage();
    await member.goto(link);
    expect(await member.getByLabel('Email').inputValue()).toBe(invited.email);
    await member.getByLabel('Username').fill(invited.username);
    await member.getByLabel('Display name').fill(invited.displayName);
    await member.getByLabel('Password').fill('a long enough password');
    await member.getByLabel('One-time code').fill(code);
    await member.getByRole('button', { name: 'Create account' }).click();
    await member.getByRole('heading', { name: `Hello, ${invited.displayName}` }).waitFor();

    // Accepted: no longer pending.
    const listed = owner.waitForResponse((response) => response.url().endsWith('/api/v1/admin/invitation'));
    await owner.reload();
    expect(await (await listed).json()).toEqual([]);
    await owner
      .getByRole('table', { name: 'Members', exact: true })
      .getByRole('rowheader', { name: new RegExp(`^${invited.displayName}`) })
      .waitFor();
    expect(await pending.count()).toBe(0);
  });

  it('the member chats with the new bot, rates the reply, and is charged for it', async () => {
    await member.getByRole('link', { name: 'Chat Poet' }).click();
    await member.waitForURL(/\/topics\/new\?bot=/);
    await member.getByLabel('Message').fill('the moon');
    await member.getByLabel('Message').press('Enter');
    await expect
      .poll(() => member.locator('.message.bot').last().textContent())
      .toContain('Roses for: the moon');
    // A thumb down with a reason; the reply shows it when the conversation is opened again.
    const bad = () => member.locator('.message.bot').last().getByRole('button', { name: 'Bad', exact: true });
    await bad().click();
    const why = member.getByRole('dialog', { name: 'What went wrong with this reply?' });
    await why.getByLabel('Reason').fill('Too short for a poem');
    await why.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => why.count()).toBe(0);
    await member.reload();
    await expect.poll(() => bad().getAttribute('aria-pressed')).toBe('true');
    await member.getByRole('button', { name: 'Profile' }).click();
    const panel = member.getByRole('complementary');
    await panel.getByRole('button', { name: 'Order history' }).click();
    await expect
      .poll(() => panel.locator('.transactions').textContent())
      .toMatch(/-\s?€?0\.50|−\s?€?0\.50|-0\.5/);
    // Each charge has its date, as the display language writes it.
    const dates = await panel
      .locator('.transactions li time')
      .evaluateAll((times) => times.map((time) => [time.getAttribute('datetime') ?? '', time.textContent]));
    expect(dates.length).toBe(await panel.locator('.transactions li').count());
    for (const [stamp, text] of dates)
      expect(text).toBe(
        new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(stamp)),
      );
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

    // The member's thumb down, per bot and per model, with its reason: never the conversation or who.
    await adminSection(owner, 'Feedback');
    const poet = owner.getByRole('table', { name: 'Per bot' }).getByRole('row', { name: /Poet/ });
    await expect.poll(() => poet.getByRole('cell').allTextContents()).toEqual(['0%', '0', '1']);
    await owner
      .getByRole('table', { name: 'Per model' })
      .getByRole('row', { name: /The bot’s own model/ })
      .waitFor();
    const reasons = owner.getByRole('region', { name: 'Poet, The bot’s own model' });
    expect(await reasons.getByRole('listitem').textContent()).toMatch(/^Bad Too short for a poem /);
    expect(await owner.getByRole('main').textContent()).not.toContain('Ada');
    expect(blocking(await runAxe(owner, noViolations())), 'axe: feedback').toEqual([]);
    await owner.setViewportSize({ width: 320, height: 800 });
    expect(await layoutProblems(owner), 'layout: feedback at 320 px').toEqual([]);
    await owner.setViewportSize({ width: 1280, height: 900 });

    await adminSection(owner, 'Audit log');
    await expect
      .poll(() => owner.locator('.audit-table td:nth-child(3)').allTextContents())
      .toEqual(
        expect.arrayContaining([
          'member.credit',
          'member.invite',
          'invitation.resend',
          'invitation.revoke',
          'bot.create',
          'provider.create',
          'category.create',
          'organization.create',
        ]),
      );
    // Readable: names instead of ids (the bot's provider and category, the member credited), field by
    // field, no JSON.
    const log = owner.locator('.audit-table');
    const row = (action: string) =>
      log.getByRole('row').filter({ has: owner.getByText(action, { exact: true }) });
    await expect.poll(() => row('bot.create').textContent()).toContain('Categories: Poetry');
    expect(await row('bot.create').textContent()).toContain('Provider: Model double');
    expect(await row('member.credit').textContent()).toMatch(/Ada Byron.*Note: Welcome to the poetry club/);
    expect(await row('category.create').getByRole('cell').nth(3).textContent()).toBe('Poetry');
    const text = (await log.textContent()) ?? '';
    expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-/);
    expect(text).not.toMatch(/[{}[\]"]/);
    expect(await layoutProblems(owner), 'the audit log').toEqual([]);
    // The member sees the credit with its note.
    await member.reload();
    await member.getByRole('button', { name: 'Profile' }).click();
    const panel = member.getByRole('complementary');
    await panel.getByRole('button', { name: 'Order history' }).click();
    await panel.getByText('Welcome to the poetry club').waitFor();
  });

  it('adds catalogue models; the bot offers them; the member picks one, tunes the chat and regenerates with the other', async () => {
    await adminSection(owner, 'Models');
    await owner.getByRole('button', { name: 'Add model' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Add model' });
    // Checked before anything is sent: a name, the provider's name for it, amounts of 0 or more.
    await dialog.getByLabel('Price per million input tokens').fill('-1');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.getByLabel('Price per million input tokens').getAttribute('aria-invalid')).toBe(
      'true',
    );
    await dialog.getByLabel('Price per million input tokens').fill('');
    const add = async (name: string, model: string, price: string) => {
      const form = owner.getByRole('dialog', { name: 'Add model' });
      if (!(await form.count())) await owner.getByRole('button', { name: 'Add model' }).click();
      await form.getByLabel('Name').fill(name);
      await form.getByLabel('Provider').selectOption({ label: 'Model double' });
      await form.getByLabel('Model', { exact: true }).fill(model);
      await form.getByLabel('Price per reply').fill(price);
      await form.getByRole('button', { name: 'Save' }).click();
      await owner.getByRole('heading', { name, level: 2 }).waitFor();
      // Focus back on what opened the form.
      await expect.poll(() => owner.evaluate(() => document.activeElement?.textContent)).toBe('Add model');
    };
    await add('Swift', 'double-1', '0.1');
    await add('Deep', 'double-2', '0.3');
    expect(await layoutProblems(owner), 'the Models screen').toEqual([]);
    // The narrowest screen: the cards and the form fit.
    await owner.setViewportSize({ width: 320, height: 900 });
    expect(await layoutProblems(owner), 'the Models screen at 320 px').toEqual([]);
    await owner.getByRole('button', { name: 'Edit Swift' }).click();
    expect(await layoutProblems(owner), 'the model form at 320 px').toEqual([]);
    await owner.keyboard.press('Escape');
    await owner.setViewportSize({ width: 1280, height: 900 });

    // Poet offers both, Deep first (its default), and lets members set temperature and length.
    await adminSection(owner, 'Bots');
    await owner.getByRole('link', { name: 'Poet' }).click();
    await owner.getByLabel('Swift').check();
    await owner.getByLabel('Deep').check();
    await owner.getByRole('button', { name: 'Move up Deep' }).click();
    await owner.getByLabel('Deep (default)').waitFor();
    await owner.getByLabel('Members may set temperature and length').check();
    expect(await layoutProblems(owner), 'the bot editor').toEqual([]);
    await owner.getByRole('button', { name: 'Save' }).click();
    await owner.getByRole('status').getByText('Saved').waitFor();

    // A model a bot offers stays: the dialog says which bot, and Escape keeps it.
    await adminSection(owner, 'Models');
    await owner.getByRole('button', { name: 'Delete Deep' }).click();
    const confirm = owner.getByRole('alertdialog', { name: 'Delete this model?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await confirm
      .getByRole('alert')
      .getByText('Bots offer this model: Poet. Take it from them first.')
      .waitFor();
    await owner.keyboard.press('Escape');
    await expect.poll(() => confirm.count()).toBe(0);

    await member.goto(`${betaUrl}/list`);
    await member.getByRole('link', { name: 'Chat Poet' }).click();
    await member.getByLabel('Message').fill('the sun');
    await member.getByLabel('Message').press('Enter');
    const lastReply = () => member.locator('.message.bot').last().textContent();
    await expect.poll(lastReply).toContain('Roses for: the sun');
    expect(model.requests.at(-1)?.model).toBe('double-2');
    // The picker shows the conversation's model, each with its price; Swift is picked for it.
    const picker = member.getByRole('combobox', { name: 'Model' });
    await expect
      .poll(() => picker.locator('option').allTextContents())
      .toEqual([
        expect.stringMatching(/^Deep · .*0\.30 per reply$/),
        expect.stringMatching(/^Swift · .*0\.10 per reply$/),
      ]);
    await picker.selectOption({ label: (await picker.locator('option').nth(1).textContent()) ?? '' });
    await expect.poll(() => picker.isEnabled()).toBe(true);
    await expect.poll(() => member.locator('.chat-bar-bot').textContent()).toMatch(/0\.10 per reply/);

    // The chat's settings: a temperature past 2 is refused next to its field, then the reply follows them.
    await member.locator('.chat-bar').getByRole('button', { name: 'Conversation actions' }).click();
    await member.getByRole('menuitem', { name: 'Chat settings' }).click();
    const settings = member.getByRole('dialog', { name: 'Chat settings' });
    await settings.getByLabel('Temperature').fill('3');
    await settings.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => settings.getByLabel('Temperature').getAttribute('aria-invalid')).toBe('true');
    await settings.getByLabel('Temperature').fill('0.4');
    await settings.getByLabel('Maximum reply length (tokens)').fill('50');
    await settings.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => settings.count()).toBe(0);
    await member.getByLabel('Message').fill('the stars');
    await member.getByLabel('Message').press('Enter');
    await expect.poll(lastReply).toContain('Roses for: the stars');
    expect(model.requests.at(-1)).toMatchObject({ model: 'double-1', temperature: 0.4, max_tokens: 50 });

    // Regenerate with Deep: a second version of the reply, written by Deep; the conversation keeps Swift.
    await member.locator('.message.bot').last().getByRole('button', { name: 'Regenerate with…' }).click();
    await member.getByRole('menuitem', { name: 'Deep' }).click();
    await expect
      .poll(() => member.locator('.message.bot').last().locator('.sibling-switcher').textContent())
      .toContain('2 / 2');
    expect(model.requests.at(-1)?.model).toBe('double-2');
    expect(await picker.inputValue()).toBe(await picker.locator('option').nth(1).getAttribute('value'));
    expect(await layoutProblems(member), 'the chat with a model picker').toEqual([]);
    await member.setViewportSize({ width: 320, height: 800 });
    expect(await layoutProblems(member), 'the chat with a model picker at 320 px').toEqual([]);
    await member.setViewportSize({ width: 1280, height: 900 });
  });

  it('a member who opens /admin is told it is for admins only', async () => {
    await member.goto(`${betaUrl}/admin`);
    await member.getByRole('heading', { name: 'Admins only' }).waitFor();
    expect(await member.getByRole('navigation', { name: 'Admin' }).count()).toBe(0);
  });

  it('the operator disables beta: it is not found, its owner cannot log in, and its data is kept', async () => {
    // The owner comes back to log in; meanwhile the operator disables the organization.
    const comeback = await newPage();
    await comeback.goto(`${betaUrl}/login`);
    await comeback.getByLabel('Email').waitFor();
    const disabled = await operator(['org', 'disable', beta.subdomain]);
    expect(disabled.out).toMatch(/The organization beta is disabled: its data is kept/);
    await expect.poll(async () => (await organization(beta.subdomain)).status).toBe(404);

    // The server refuses the login with 403 from its first call on (the public key the password is
    // encrypted for), and the app says why.
    const answers: number[] = [];
    comeback.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/auth/')) answers.push(response.status());
    });
    await logIn(comeback, betaOwner.email, betaOwner.password);
    const error = comeback.getByRole('alertdialog', { name: 'Error' });
    await error.waitFor();
    await error.getByText('This organization has been disabled.').waitFor();
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.every((status) => status === 403)).toBe(true);
    expect(comeback.url()).toMatch(/\/login$/);
    // Opened again, beta's address offers nothing: the organization is not found.
    const lookup = comeback.waitForResponse((response) =>
      response.url().endsWith(`/api/v1/organization/${beta.subdomain}`),
    );
    await comeback.reload();
    expect((await lookup).status()).toBe(404);
    await comeback.getByRole('banner').waitFor();
    expect(await comeback.getByRole('link', { name: 'Register' }).count()).toBe(0);

    // Its data is kept: the organization is still listed, with its owner and its new member.
    const list = await operator(['org', 'list']);
    expect(list.out).toMatch(/^beta\s+Beta\s+disabled\s+2\s+owner@beta\.test$/m);
  });
});
