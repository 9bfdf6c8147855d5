import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocking, noViolations, runAxe } from '../support/axe';
import { launchBrowser } from '../support/browser';
import { layoutProblems } from '../support/fit';
import { readCode } from '../support/outbox';
import { type RunningServer, startServer } from '../support/server';

// Issue 21: an admin makes a group with a monthly budget, gives it a member and a bot only it sees;
// the member chats until the budget is reached and is told the day replies start again.
describe('groups in Chromium: a bot only a group sees, and a monthly budget', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: Page;
  let member: Page;
  let outsider: Page;
  const stamp = Date.now().toString(36);
  const ada = { displayName: 'Ada Lovelace', username: `ada${stamp}`, email: `ada.${stamp}@example.org` };
  const bob = { displayName: 'Bob Outside', username: `bob${stamp}`, email: `bob.${stamp}@example.org` };
  const group = `Poets ${stamp}`;
  const axeTotals = noViolations();

  const newPage = async (width = 1280, height = 900) =>
    (await browser.newContext({ viewport: { width, height } })).newPage();
  const signUp = async (page: Page, person: typeof ada) => {
    await page.goto(`${server.url}/register`);
    await page.getByLabel('Username').fill(person.username);
    await page.getByLabel('Display name').fill(person.displayName);
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByLabel('One-time code').fill(await readCode(server.dataDir, person.email));
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: `Hello, ${person.displayName}` }).waitFor();
  };
  const adminSection = async (name: string) => {
    await admin.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name, exact: true }).click();
    await admin.getByRole('heading', { name, level: 1 }).waitFor();
  };
  const focused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);
  /** axe finds nothing serious, and nothing lies outside the window or makes the page scroll sideways. */
  const expectAccessible = async (page: Page, where: string) => {
    expect(blocking(await runAxe(page, axeTotals)), `axe: ${where}`).toEqual([]);
    expect(await layoutProblems(page), `layout: ${where}`).toEqual([]);
  };
  /** Escape closes the dialog, and focus is back on the button that opened it. */
  const expectEscapeCloses = async (dialog: Locator, opener: Locator) => {
    await admin.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => focused(opener)).toBe(true);
  };

  beforeAll(async () => {
    server = await startServer({ BUILTIN_TOKEN_DELAY_MS: '0' });
    browser = await launchBrowser();
    [admin, member, outsider] = await Promise.all([newPage(), newPage(), newPage()]);
    await signUp(member, ada);
    await signUp(outsider, bob);
    await admin.goto(`${server.url}/login`);
    await admin.getByLabel('Email').fill('admin@parley.test');
    await admin.getByLabel('Password', { exact: true }).fill('parley-admin-1');
    await admin.getByRole('button', { name: 'Log in' }).click();
    await admin.waitForURL(/\/list$/);
    await admin.goto(`${server.url}/admin`);
    await admin.getByRole('heading', { name: 'Bots', level: 1 }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('the admin makes a group with a monthly budget on the Groups screen', async () => {
    await adminSection('Groups');
    await admin.getByText('No groups yet.').waitFor();
    await expectAccessible(admin, 'Groups, empty');

    const add = admin.getByRole('button', { name: 'Add group' });
    await add.click();
    const dialog = admin.getByRole('dialog', { name: 'Add group' });
    await dialog.waitFor();
    await expectAccessible(admin, 'Add group');
    await expectEscapeCloses(dialog, add);

    await add.click();
    // A budget that is not an amount is refused next to its field, before anything is sent.
    await dialog.getByLabel('Name').fill(group);
    await dialog.getByLabel('Monthly budget per member').fill('ten');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => dialog.getByLabel('Monthly budget per member').getAttribute('aria-invalid'))
      .toBe('true');
    await expectAccessible(admin, 'Add group, budget refused');
    // ELIZA costs 0.01 a reply: the budget allows one a month.
    await dialog.getByLabel('Monthly budget per member').fill('0.01');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await admin.getByRole('status').getByText('Group created').waitFor();
    await expect.poll(() => dialog.count()).toBe(0);
    const card = admin.getByRole('listitem').filter({ has: admin.getByRole('heading', { name: group }) });
    await card.waitFor();
    expect(await card.locator('dd').allTextContents()).toEqual(['0.01', '0', '0']);
    await expectAccessible(admin, 'Groups, one group');

    // Edit shows what was saved; Escape closes it and gives focus back to its button.
    const edit = admin.getByRole('button', { name: `Edit ${group}` });
    await edit.click();
    const editing = admin.getByRole('dialog', { name: 'Edit group' });
    expect(await editing.getByLabel('Name').inputValue()).toBe(group);
    expect(await editing.getByLabel('Monthly budget per member').inputValue()).toBe('0.01');
    await expectEscapeCloses(editing, edit);
  });

  it('adds a member to the group in its members dialog', async () => {
    const open = admin.getByRole('button', { name: `Members ${group}` });
    await open.click();
    const dialog = admin.getByRole('dialog', { name: 'Group members' });
    await dialog.getByText('Nobody yet.').waitFor();
    await expectAccessible(admin, 'Group members, nobody');
    await expectEscapeCloses(dialog, open);

    await open.click();
    await dialog.getByLabel('Search members').fill(ada.username);
    const adaBox = dialog.getByRole('checkbox', { name: `${ada.displayName} (@${ada.username})` });
    await adaBox.check();
    // Ticked, she is listed among the group's members.
    await dialog
      .getByRole('group', { name: 'In this group' })
      .getByRole('checkbox', { checked: true })
      .waitFor();
    await expectAccessible(admin, 'Group members, one ticked');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await admin.getByRole('status').getByText('Group saved').waitFor();
    await expect.poll(() => dialog.count()).toBe(0);
    const card = admin.getByRole('listitem').filter({ has: admin.getByRole('heading', { name: group }) });
    await expect.poll(() => card.locator('dd').allTextContents()).toEqual(['0.01', '1', '0']);
  });

  it('limits ELIZA to the group in the bot editor’s Groups field', async () => {
    await adminSection('Bots');
    await admin.getByRole('link', { name: 'ELIZA', exact: true }).click();
    await admin.getByRole('heading', { name: 'ELIZA', level: 1 }).waitFor();
    const groups = admin.getByRole('group', { name: 'Groups' });
    await groups.getByRole('checkbox', { name: group }).check();
    await expectAccessible(admin, 'Bot editor with a group');
    await admin.getByRole('button', { name: 'Save', exact: true }).click();
    await admin.getByRole('status').getByText('Saved').waitFor();

    await adminSection('Groups');
    const card = admin.getByRole('listitem').filter({ has: admin.getByRole('heading', { name: group }) });
    await expect.poll(() => card.locator('dd').allTextContents()).toEqual(['0.01', '1', '1']);
  });

  it('the member sees ELIZA in the bot list; someone outside the group does not', async () => {
    for (const page of [member, outsider]) {
      await page.goto(`${server.url}/list`);
      await page.getByRole('link', { name: 'Chat Calculator' }).waitFor();
    }
    await member.getByRole('link', { name: 'Chat ELIZA' }).waitFor();
    expect(await outsider.getByRole('link', { name: 'Chat ELIZA' }).count()).toBe(0);
    await outsider.getByRole('button', { name: 'Bot list' }).click();
    await outsider.getByRole('complementary').getByRole('button', { name: 'Calculator' }).waitFor();
    expect(await outsider.getByRole('complementary').getByRole('button', { name: 'ELIZA' }).count()).toBe(0);
  });

  it('the member chats until the budget is reached and is told the day replies start again', async () => {
    await member.getByRole('link', { name: 'Chat ELIZA' }).click();
    await member.waitForURL(/\/topics\/new\?bot=/);
    // Someone outside the group who follows the same link is sent back to the catalogue.
    await outsider.goto(member.url());
    const refused = outsider.getByRole('alert').filter({ hasText: 'This bot does not exist.' });
    await refused.getByRole('link', { name: 'Choose a bot' }).waitFor();

    const message = member.getByLabel('Message');
    await message.fill('Men are all alike.');
    await message.press('Enter');
    await expect.poll(() => member.locator('.message.bot').last().textContent()).toContain('In what way?');

    // As a person would: once the reply has ended (Stop became Send again) and the text is typed.
    await message.fill('They are always bugging us.');
    await member.getByRole('button', { name: 'Send', exact: true }).and(member.locator(':enabled')).waitFor();
    await message.press('Enter');
    const now = new Date();
    const reset = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }).format(
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
    );
    const alert = member.getByRole('alert').filter({ hasText: 'You have reached your monthly budget.' });
    await alert.waitFor();
    expect((await alert.textContent())?.replace(/\s+/g, ' ')).toContain(`Replies start again on ${reset}.`);
    expect(blocking(await runAxe(member, axeTotals)), 'axe: budget reached').toEqual([]);
  });

  it('the Groups screen and its dialogs fit 375 and 320 px wide windows and pass axe there', async () => {
    for (const width of [375, 320]) {
      await admin.setViewportSize({ width, height: 740 });
      await admin.goto(`${server.url}/admin/groups`);
      await admin.getByRole('heading', { name: 'Groups', level: 1 }).waitFor();
      await admin.getByRole('heading', { name: group }).waitFor();
      await expectAccessible(admin, `Groups at ${width} px`);

      const add = admin.getByRole('button', { name: 'Add group' });
      await add.click();
      await admin.getByRole('dialog', { name: 'Add group' }).waitFor();
      await expectAccessible(admin, `Add group at ${width} px`);
      await expectEscapeCloses(admin.getByRole('dialog', { name: 'Add group' }), add);

      const members = admin.getByRole('button', { name: `Members ${group}` });
      await members.click();
      const dialog = admin.getByRole('dialog', { name: 'Group members' });
      await dialog.getByRole('checkbox', { name: `${ada.displayName} (@${ada.username})` }).waitFor();
      await expectAccessible(admin, `Group members at ${width} px`);
      await expectEscapeCloses(dialog, members);

      const remove = admin.getByRole('button', { name: `Delete ${group}` });
      await remove.click();
      const confirm = admin.getByRole('alertdialog', { name: 'Delete this group?' });
      await confirm.waitFor();
      await expectAccessible(admin, `Delete group at ${width} px`);
      await expectEscapeCloses(confirm, remove);
    }
  });
});
