import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, loginOwner } from '../server/admin/support';
import { giveTools } from '../server/tools/support';
import { botIds, signUp, type TestServer } from '../support/app';
import { type AxeTotals, blocking, noViolations, runAxe } from '../support/axe';
import { launchBrowser } from '../support/browser';
import { layoutProblems } from '../support/fit';
import { type OpenAiDouble, startOpenAiDouble, toolSteps } from '../support/openai-double';
import { type SearchDouble, startBraveDouble } from '../support/searchEngines';
import { type RunningServer, startServer } from '../support/server';

/** A sum long enough that its result (the sum and its value) is shortened on screen. */
const longSum = Array.from({ length: 150 }, () => '1').join(' + ');

const braveKey = 'BSA-e2e-key-0123456789wxyz';

/**
 * Tool steps of a reply in Chromium against `npm start`: the Assistant (the OpenAI double, calling
 * tools in OpenAI's wire format) uses the calculator and the clock, the clock asking first, and
 * searches the web (Brave Search's double) when the member switches "Search the web" on.
 */
describe('tool steps in the conversation', () => {
  let server: RunningServer;
  let api: TestServer;
  let model: OpenAiDouble;
  let brave: SearchDouble;
  let browser: Browser;
  let page: Page;
  let assistant: string;
  let token: string;
  const totals: AxeTotals = noViolations();

  beforeAll(async () => {
    [model, brave] = await Promise.all([startOpenAiDouble(), startBraveDouble([braveKey])]);
    [server, browser] = await Promise.all([
      startServer({
        OPENAI_BASE_URL: model.url,
        BRAVE_SEARCH_URL: brave.url,
        RATE_LIMIT_OTP_PER_IP_PER_HOUR: '10000',
      }),
      launchBrowser(),
    ]);
    api = server as unknown as TestServer;
    assistant = (await botIds(api)).Assistant;
    token = (await signUp(api)).token;
    page = await signedIn(1280);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await model?.close();
    await brave?.close();
  });

  /** A browser of the user's at that width, made at that size. */
  async function signedIn(width: number): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    await context.addInitScript((value) => localStorage.setItem('token', value), token);
    return context.newPage();
  }
  const send = async (text: string) => {
    await page.getByLabel('Message').fill(text);
    await page.getByRole('button', { name: 'Send', exact: true }).and(page.locator(':enabled')).waitFor();
    await page.getByLabel('Message').press('Enter');
  };
  const lastReply = (on: Page = page) => on.locator('.message.bot').last();
  /** A step's disclosure: its name reads "tool status time". */
  const stepButton = (on: Page, tool: string, status: string) =>
    on.getByRole('log').getByRole('button', { name: new RegExp(`^${tool} ${status}`) });
  const accessible = async (on: Page, where: string) =>
    expect(blocking(await runAxe(on, totals)), `axe: ${where}`).toEqual([]);
  const fits = async (on: Page, where: string) =>
    expect(await layoutProblems(on), `fit: ${where}`).toEqual([]);

  it('shows a reply’s two steps, each opening on its arguments, result (Show all) and time; a reload keeps them', async () => {
    await giveTools(api, 'app', assistant, ['calculator', 'current_time']);
    model.script(
      toolSteps([
        { call: { name: 'calculator', arguments: { expression: longSum } } },
        { call: { name: 'current_time', arguments: { timezone: 'Europe/Paris' } } },
        { answer: (results) => `The sum is ${results[0].split(' = ').at(-1)}, and I checked the clock.` },
      ]),
    );
    await page.goto(`${server.url}/topics/new?bot=${assistant}`);
    await send('Add up the ones, and tell me the time.');
    await expect.poll(() => lastReply().textContent()).toContain('The sum is 150, and I checked the clock.');
    await stepButton(page, 'calculator', 'Done').waitFor();
    await stepButton(page, 'current_time', 'Done').waitFor();
    // Closed until asked: the arguments show once a step is opened.
    expect(await page.getByRole('heading', { name: 'Arguments' }).count()).toBe(0);
    await accessible(page, 'two steps, closed');

    const calculator = stepButton(page, 'calculator', 'Done');
    await calculator.click();
    expect(await calculator.getAttribute('aria-expanded')).toBe('true');
    const details = page.locator(`#${await calculator.getAttribute('aria-controls')}`);
    expect(await details.locator('pre').first().textContent()).toBe(
      JSON.stringify({ expression: longSum }, null, 2),
    );
    // The result is longer than 400 characters: its start, then all of it on request.
    const result = details.locator('pre').nth(1);
    expect(await result.textContent()).toBe(`${`${longSum} = 150`.slice(0, 400)}…`);
    await details.getByRole('button', { name: 'Show all' }).click();
    expect(await result.textContent()).toBe(`${longSum} = 150`);
    await details.getByRole('button', { name: 'Show less' }).waitFor();
    expect(await details.textContent()).toMatch(/Time taken \d+ ms/);

    const clock = stepButton(page, 'current_time', 'Done');
    await clock.click();
    const clockDetails = page.locator(`#${await clock.getAttribute('aria-controls')}`);
    expect(await clockDetails.locator('pre').first().textContent()).toBe(
      JSON.stringify({ timezone: 'Europe/Paris' }, null, 2),
    );
    expect(await clockDetails.locator('pre').nth(1).textContent()).toMatch(
      /^\d{4}-\d\d-\d\dT.*Europe\/Paris/s,
    );
    await accessible(page, 'two steps, open');

    // Stored with the message: a reload (or another browser) shows them.
    await page.reload();
    await stepButton(page, 'calculator', 'Done').waitFor();
    await stepButton(page, 'current_time', 'Done').waitFor();
    expect(await lastReply().textContent()).toContain('The sum is 150');

    // On a phone, the long arguments and result wrap inside their boxes.
    const address = page.url();
    for (const width of [375, 320]) {
      const phone = await signedIn(width);
      await phone.goto(address);
      await stepButton(phone, 'calculator', 'Done').click();
      await phone.getByRole('button', { name: 'Show all' }).click();
      await stepButton(phone, 'current_time', 'Done').click();
      await fits(phone, `open steps at ${width} px`);
      await accessible(phone, `open steps at ${width} px`);
      await phone.context().close();
    }
  });

  it('a model bot remembers: the reply says Saved to memory, Undo removes it (also after a reload)', async () => {
    const memories = () =>
      fetch(`${server.url}/api/v1/memory`, { headers: { authorization: `Bearer ${token}` } }).then(
        (response) => response.json() as Promise<{ _id: string; text: string; source: string }[]>,
      );
    model.script(
      toolSteps([
        { call: { name: 'remember', arguments: { text: 'Prefers answers in metric units' } } },
        { answer: () => 'Noted: metric it is.' },
      ]),
    );
    await page.goto(`${server.url}/topics/new?bot=${assistant}`);
    await send('Please remember that I prefer metric units.');
    await expect.poll(() => lastReply().textContent()).toContain('Noted: metric it is.');
    const note = page.getByRole('log').getByText('Saved to memory');
    await note.waitFor();
    expect(await memories()).toEqual([
      expect.objectContaining({ text: 'Prefers answers in metric units', source: 'model' }),
    ]);
    await accessible(page, 'saved to memory');
    // Stored with the message: a reload still offers Undo, which deletes the memory.
    await page.reload();
    await page.getByRole('log').getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('log').getByText('Removed from memory').waitFor();
    expect(await memories()).toEqual([]);
  });

  it('asks first: the call waits with Allow and Deny; Allow runs it, Deny does not, and both stay after a reload', async () => {
    await giveTools(api, 'app', assistant, ['calculator', 'current_time'], ['current_time']);
    model.script(
      toolSteps([
        { call: { name: 'current_time', arguments: { timezone: 'Europe/Paris' } } },
        { answer: (results) => `The clock said: ${results[0].split('\n')[0]}` },
      ]),
    );
    await page.goto(`${server.url}/topics/new?bot=${assistant}`);
    await send('What time is it?');
    const question = page.getByRole('heading', { name: 'Allow this tool to run? current_time' });
    await question.waitFor();
    const approval = page.locator('.tool-approval');
    expect(await approval.locator('pre').textContent()).toBe(
      JSON.stringify({ timezone: 'Europe/Paris' }, null, 2),
    );
    // Nothing ran: the reply waits for the user, with Stop at hand.
    expect(await lastReply().locator('.tool-step.awaiting_approval').count()).toBe(1);
    await page.getByRole('button', { name: 'Stop', exact: true }).waitFor();
    await accessible(page, 'a call waiting for approval');

    // The same wait on a phone, following the reply: the question fits with its buttons.
    const address = page.url();
    for (const width of [375, 320]) {
      const phone = await signedIn(width);
      await phone.goto(address);
      await phone.getByRole('heading', { name: 'Allow this tool to run? current_time' }).waitFor();
      await phone.getByRole('button', { name: 'Allow', exact: true }).waitFor();
      await fits(phone, `approval at ${width} px`);
      await accessible(phone, `approval at ${width} px`);
      await phone.context().close();
    }

    await page.getByRole('button', { name: 'Allow', exact: true }).click();
    await expect.poll(() => lastReply().textContent()).toContain('The clock said: 20');
    await stepButton(page, 'current_time', 'Done').waitFor();
    expect(await question.count()).toBe(0);
    // The buttons went with the answer: the answered step has the focus, once the reply is complete too.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent ?? ''))
      .toMatch(/^current_time Done/);
    await page.getByRole('button', { name: 'Send', exact: true }).waitFor();

    // Denied: the tool does not run, the model is told, and the step says so.
    await send('And what time is it now?');
    await question.waitFor();
    await page.getByRole('button', { name: 'Deny', exact: true }).click();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent ?? ''))
      .toMatch(/^current_time Denied/);
    await expect
      .poll(() => lastReply().textContent())
      .toContain('The clock said: The user did not allow this call');
    const denied = stepButton(page, 'current_time', 'Denied');
    await denied.click();
    const deniedDetails = page.locator(`#${await denied.getAttribute('aria-controls')}`);
    expect(await deniedDetails.textContent()).toContain('Error Denied by the user.');
    expect(await deniedDetails.getByRole('heading', { name: 'Result' }).count()).toBe(0);
    await accessible(page, 'a denied call, open');

    await page.reload();
    await stepButton(page, 'current_time', 'Denied').waitFor();
    await stepButton(page, 'current_time', 'Done').waitFor();
    expect(await page.getByRole('button', { name: 'Allow', exact: true }).count()).toBe(0);
  });

  it('searches the web for one message: the admin sets Brave Search, the member switches it on, the reply cites its pages as links', async () => {
    // The owner chooses Brave Search in Settings; the key is never shown again, only its end.
    const owner = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await owner.addInitScript(
      (value) => localStorage.setItem('token', value),
      (await loginOwner(api, 'app')).token,
    );
    const settings = await owner.newPage();
    await settings.goto(`${server.url}/admin/settings`);
    await settings.getByLabel('Web search').selectOption('brave');
    await settings.getByLabel('Brave Search API key').fill(braveKey);
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect(await settings.getByLabel('Brave Search API key').inputValue()).toBe('');
    expect(await settings.getByLabel('Brave Search API key').getAttribute('placeholder')).toBe('••••wxyz');
    await accessible(settings, 'settings with Brave Search');
    await owner.close();

    await giveTools(api, 'app', assistant, ['calculator']);
    model.script(
      toolSteps([
        { call: { name: 'web_search', arguments: { query: 'spring tides' } } },
        { answer: () => 'Spring tides come with the new and full moon [1].' },
      ]),
    );
    await page.goto(`${server.url}/topics/new?bot=${assistant}`);
    const toggle = page.getByRole('switch', { name: 'Search the web' });
    await toggle.check();
    const asked = model.requests.length;
    await send('When are spring tides?');
    await expect
      .poll(() => lastReply().textContent())
      .toContain('Spring tides come with the new and full moon');
    expect(model.requests[asked].tools?.map((tool) => tool.function.name)).toContain('web_search');
    // For that message only.
    expect(await toggle.isChecked()).toBe(false);
    await stepButton(page, 'web_search', 'Done').waitFor();
    // The sources under the reply (they come with its end), and its [1], open the pages in a new tab.
    const sources = lastReply().locator('.cited-sources').getByRole('link');
    await expect.poll(() => sources.count()).toBe(2);
    const first = sources.first();
    expect(await first.textContent()).toBe('[1] spring tides — an overview');
    expect(await first.getAttribute('href')).toBe('https://example.org/spring%20tides');
    expect(await first.getAttribute('target')).toBe('_blank');
    expect(await first.getAttribute('rel')).toContain('noopener');
    const marker = lastReply().getByRole('link', { name: '[1]', exact: true });
    expect(await marker.getAttribute('href')).toBe('https://example.org/spring%20tides');
    expect(await marker.getAttribute('rel')).toContain('noopener');
    await accessible(page, 'a reply citing web pages');
    await fits(page, 'a reply citing web pages');
    const phone = await signedIn(320);
    await phone.goto(page.url());
    await lastReply(phone).locator('.cited-sources').getByRole('link').first().waitFor();
    await phone.getByRole('switch', { name: 'Search the web' }).waitFor();
    await fits(phone, 'web pages cited, at 320 px');
    await accessible(phone, 'web pages cited, at 320 px');
    await phone.context().close();
    // No engine again: the other tests' bots search nothing.
    await admin(api, await loginOwner(api, 'app'), '/settings', { method: 'PATCH', body: { search: null } });
  });
});
