import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocking, noViolations, runAxe } from '../support/axe';
import { launchBrowser } from '../support/browser';
import { layoutProblems } from '../support/fit';
import { type EverythingServer, startEverything } from '../support/mcpServers';
import { type OpenAiDouble, startOpenAiDouble } from '../support/openai-double';
import { type RunningServer, startServer } from '../support/server';

// Issue 22: an admin adds an MCP server (the reference server-everything over Streamable HTTP) on the
// Tools screen, sees its tools beside the built-in ones, and gives a model bot some of them, one to
// be asked first.
describe('the Tools screen and a bot’s Tools field in Chromium', () => {
  let server: RunningServer;
  let everything: EverythingServer;
  let model: OpenAiDouble;
  let browser: Browser;
  let admin: Page;
  const axeTotals = noViolations();
  const token = 'mcp-e2e-token-abcdef-4321';

  const focused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);
  /** axe finds nothing serious, and nothing lies outside the window or makes the page scroll sideways. */
  const expectAccessible = async (page: Page, where: string) => {
    expect(blocking(await runAxe(page, axeTotals)), `axe: ${where}`).toEqual([]);
    expect(await layoutProblems(page), `layout: ${where}`).toEqual([]);
  };
  /** The same on a 320 px wide phone, then back to the desktop window. */
  const expectPhoneFit = async (page: Page, where: string) => {
    await page.setViewportSize({ width: 320, height: 640 });
    expect(await layoutProblems(page), `layout at 320 px: ${where}`).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });
  };
  const expectEscapeCloses = async (dialog: Locator, opener: Locator) => {
    await admin.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => focused(opener)).toBe(true);
  };
  const toolsSection = async () => {
    await admin
      .getByRole('navigation', { name: 'Admin' })
      .getByRole('link', { name: 'Tools', exact: true })
      .click();
    await admin.getByRole('heading', { name: 'Tools', level: 1 }).waitFor();
  };
  const card = (name: string) =>
    admin.getByRole('listitem').filter({ has: admin.getByRole('heading', { name, exact: true }) });

  beforeAll(async () => {
    [everything, model] = await Promise.all([startEverything(), startOpenAiDouble()]);
    // The MCP server runs on this machine (127.0.0.1), as the providers' tests reach their double; the
    // server's own provider is the OpenAI double.
    server = await startServer({ ALLOW_PRIVATE_PROVIDER_URLS: 'true', OPENAI_BASE_URL: model.url });
    browser = await launchBrowser();
    admin = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await admin.goto(`${server.url}/login`);
    await admin.getByLabel('Email').fill('admin@parley.test');
    await admin.getByLabel('Password', { exact: true }).fill('parley-admin-1');
    await admin.getByRole('button', { name: 'Log in' }).click();
    await admin.waitForURL(/\/list$/);
    await admin.goto(`${server.url}/admin`);
    await admin.getByRole('heading', { name: 'Bots', level: 1 }).waitFor();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    everything?.stop();
    await model?.close();
  });

  it('lists the built-in tools and no MCP server yet', async () => {
    await toolsSection();
    await admin.getByText('No MCP servers yet.').waitFor();
    for (const name of ['calculator', 'current_time', 'fetch_url', 'generate_image', 'search_knowledge'])
      await admin.locator('ul.tool-list code', { hasText: name }).waitFor();
    await expectAccessible(admin, 'Tools, no server');
    await expectPhoneFit(admin, 'Tools, no server');
  });

  it('adds an MCP server: a URL nobody answers is refused at its field, the right one lists its tools', async () => {
    const add = admin.getByRole('button', { name: 'Add MCP server' });
    await add.click();
    const dialog = admin.getByRole('dialog', { name: 'Add MCP server' });
    await dialog.waitFor();
    await expectAccessible(admin, 'Add MCP server');
    await expectPhoneFit(admin, 'Add MCP server');
    await expectEscapeCloses(dialog, add);

    await add.click();
    // Nothing filled in: each required field says so, before anything is sent.
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.getByLabel('URL').getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');

    await dialog.getByLabel('Name').fill('Everything Demo');
    await dialog.getByLabel('URL').fill('http://127.0.0.1:9/mcp');
    await dialog.getByLabel('Token', { exact: true }).fill(token);
    await dialog.getByRole('button', { name: 'Save' }).click();
    const url = dialog.getByLabel('URL');
    await expect.poll(() => url.getAttribute('aria-invalid'), { timeout: 15_000 }).toBe('true');
    const describedBy = (await url.getAttribute('aria-describedby')) ?? '';
    const messages = await Promise.all(
      describedBy.split(' ').map((id) => admin.locator(`[id="${id}"]`).textContent()),
    );
    expect(messages.join(' ')).toContain('cannot be reached');
    await expectAccessible(admin, 'Add MCP server, URL refused');

    await url.fill(everything.url);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await admin.getByRole('status').getByText('MCP server added').waitFor({ timeout: 15_000 });
    await expect.poll(() => dialog.count()).toBe(0);
    const added = card('Everything Demo');
    await added.waitFor();
    expect(await added.locator('dd').allTextContents()).toEqual([everything.url, '••••4321', 'No bot yet']);
    // Its tools, behind their summary.
    await added.locator('summary').click();
    await added.locator('code', { hasText: 'everything-demo__echo' }).waitFor();
    await expectAccessible(admin, 'Tools, one server, its tools open');
    await expectPhoneFit(admin, 'Tools, one server, its tools open');

    // Edit shows what was saved, the token never.
    const edit = admin.getByRole('button', { name: 'Edit Everything Demo' });
    await edit.click();
    const editing = admin.getByRole('dialog', { name: 'Edit MCP server' });
    expect(await editing.getByLabel('Name').inputValue()).toBe('Everything Demo');
    expect(await editing.getByLabel('URL').inputValue()).toBe(everything.url);
    expect(await editing.getByLabel('Token', { exact: true }).inputValue()).toBe('');
    await editing.getByRole('checkbox', { name: 'Remove the saved token' }).waitFor();
    await expectAccessible(admin, 'Edit MCP server');
    await expectEscapeCloses(editing, edit);
  }, 60_000);

  it('removes a server after a confirmation', async () => {
    await admin.getByRole('button', { name: 'Add MCP server' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Add MCP server' });
    await dialog.getByLabel('Name').fill('Scratch');
    await dialog.getByLabel('URL').fill(everything.url);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await card('Scratch').waitFor({ timeout: 15_000 });

    const remove = admin.getByRole('button', { name: 'Remove Scratch' });
    await remove.click();
    const confirm = admin.getByRole('alertdialog', { name: 'Remove this MCP server?' });
    await confirm.getByText('No bot uses its tools.').waitFor();
    await expectAccessible(admin, 'Remove this MCP server?');
    await expectEscapeCloses(confirm, remove);
    await remove.click();
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await admin.getByRole('status').getByText('MCP server removed').waitFor();
    await expect.poll(() => card('Scratch').count()).toBe(0);
  }, 60_000);

  it('edits the seeded Assistant on the server’s own provider: its model shown, the provider’s models suggested, Save saves', async () => {
    await admin.goto(`${server.url}/admin/bots`);
    await admin.getByRole('link', { name: 'Assistant', exact: true }).click();
    await admin.getByRole('heading', { name: 'Assistant', level: 1 }).waitFor();
    const modelField = admin.getByLabel('Model', { exact: true });
    expect(await modelField.inputValue()).toBe('gpt-4o-mini');
    expect(await admin.getByLabel('Provider', { exact: true }).inputValue()).toBe('');
    // The suggestions are the double's GET /models.
    const suggestions = admin.locator(`#${await modelField.getAttribute('list')} option`);
    await expect
      .poll(() => suggestions.evaluateAll((options) => options.map((option) => option.getAttribute('value'))))
      .toEqual(['double-1', 'double-2']);
    await admin.getByText('Type or pick one of the provider’s models.').waitFor();
    await expectAccessible(admin, 'Bot editor, the server’s own provider');
    await modelField.fill('double-2');
    await admin.getByRole('button', { name: 'Save' }).click();
    await admin.getByRole('status').getByText('Saved').waitFor({ timeout: 15_000 });
    await admin.reload();
    await admin.getByRole('heading', { name: 'Assistant', level: 1 }).waitFor();
    await expect.poll(() => admin.getByLabel('Model', { exact: true }).inputValue()).toBe('double-2');
  });

  it('offers the tools in a model bot’s editor, each with Ask first once chosen', async () => {
    await admin.goto(`${server.url}/admin/bots/new`);
    await admin.getByRole('heading', { name: 'New bot', level: 1 }).waitFor();
    const tools = admin.getByRole('group', { name: 'Tools' });
    await tools.waitFor();
    const echo = tools.getByRole('checkbox', { name: 'everything-demo__echo', exact: true });
    const askEcho = tools.getByRole('checkbox', { name: 'Ask first: everything-demo__echo' });
    await tools.getByRole('checkbox', { name: 'calculator', exact: true }).waitFor();
    // Asking first is for a tool the bot has.
    expect(await askEcho.isDisabled()).toBe(true);
    await echo.check();
    expect(await askEcho.isDisabled()).toBe(false);
    await askEcho.check();
    await expectAccessible(admin, 'Bot editor, a tool asked first');
    await expectPhoneFit(admin, 'Bot editor, a tool asked first');
    // Taking the tool away takes its Ask first too.
    await echo.uncheck();
    expect(await askEcho.isChecked()).toBe(false);
    expect(await askEcho.isDisabled()).toBe(true);
  });

  it('saves a model bot’s tools and Ask first, and shows them again', async () => {
    await admin.goto(`${server.url}/admin/bots/new`);
    await admin.getByRole('heading', { name: 'New bot', level: 1 }).waitFor();
    await admin.getByLabel('Name', { exact: true }).fill('Tool user');
    await admin.getByLabel('Model', { exact: true }).fill('double-1');
    const tools = admin.getByRole('group', { name: 'Tools' });
    await tools.getByRole('checkbox', { name: 'calculator', exact: true }).check();
    await tools.getByRole('checkbox', { name: 'everything-demo__echo', exact: true }).check();
    await tools.getByRole('checkbox', { name: 'Ask first: everything-demo__echo' }).check();
    await admin.getByRole('button', { name: 'Save' }).click();
    await admin.getByRole('status').getByText('Saved').waitFor({ timeout: 15_000 });
    await admin.waitForURL(/\/admin\/bots\/(?!new)[^/]+$/);
    await admin.reload();
    const again = admin.getByRole('group', { name: 'Tools' });
    await again.getByRole('checkbox', { name: 'everything-demo__echo', exact: true }).waitFor();
    expect(await again.getByRole('checkbox', { name: 'calculator', exact: true }).isChecked()).toBe(true);
    expect(
      await again.getByRole('checkbox', { name: 'everything-demo__echo', exact: true }).isChecked(),
    ).toBe(true);
    expect(await again.getByRole('checkbox', { name: 'Ask first: everything-demo__echo' }).isChecked()).toBe(
      true,
    );
    expect(await again.getByRole('checkbox', { name: 'Ask first: calculator' }).isChecked()).toBe(false);

    // The Tools screen names the bot, and removing its server says it loses the tool.
    await admin.goto(`${server.url}/admin/tools`);
    await card('Everything Demo').getByText('Tool user').waitFor();
    await admin.getByRole('button', { name: 'Remove Everything Demo' }).click();
    const confirm = admin.getByRole('alertdialog', { name: 'Remove this MCP server?' });
    await confirm.getByText('Bots that lose tools: Tool user').waitFor();
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await admin.getByRole('status').getByText('MCP server removed').waitFor();
  }, 60_000);
});
