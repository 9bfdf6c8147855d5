import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocking, formatTotals, noViolations, runAxe } from '../support/axe';
import { launchBrowser } from '../support/browser';
import { type OpenAiDouble, startOpenAiDouble, textOf } from '../support/openai-double';
import { readCode } from '../support/outbox';
import { type RunningServer, startServer } from '../support/server';

describe('accessibility in Chromium: keyboard-only journeys and axe-core', () => {
  let server: RunningServer;
  let model: OpenAiDouble;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const totals = noViolations();
  const checked: string[] = [];
  const email = `keys.${Date.now()}@example.org`;
  const password = 'a long enough password';

  beforeAll(async () => {
    model = await startOpenAiDouble();
    server = await startServer({ OPENAI_BASE_URL: model.url, BUILTIN_TOKEN_DELAY_MS: '5' });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
  });
  afterAll(async () => {
    console.log(
      `axe: ${checked.length} states checked (${checked.join(', ')}); violations by impact: ` +
        formatTotals(totals),
    );
    await browser?.close();
    await server?.stop();
    await model?.close();
  });

  /** axe-core on the page as it is now: no critical or serious violation. */
  const axe = async (state: string) => {
    const violations = await runAxe(page, totals);
    checked.push(state);
    expect(blocking(violations), `axe on ${state}`).toEqual([]);
  };

  const isFocused = (target: Locator) =>
    target
      .evaluate((element) => element === document.activeElement, undefined, { timeout: 1000 })
      .catch(() => false);
  const expectFocus = (target: Locator) =>
    expect.poll(() => isFocused(target), { timeout: 10_000 }).toBe(true);
  /** Presses Tab (or Shift+Tab) until `target` has focus: reachable by keyboard alone. */
  const tabTo = async (target: Locator, key: 'Tab' | 'Shift+Tab' = 'Tab', most = 80) => {
    for (let presses = 0; presses < most; presses += 1) {
      await page.keyboard.press(key);
      if (await isFocused(target)) return;
    }
    throw new Error(`${target} is not reached with ${most} × ${key}`);
  };
  const mainHeading = () => page.locator('#main h1');
  const panel = () => page.getByRole('complementary');
  const sidebar = () => page.getByRole('navigation', { name: 'Conversations' });

  it('landing and register: the heading takes focus on a route change, each route has its title, no sideways scroll at 320 px', async () => {
    await page.goto(`${server.url}/landing`);
    await page.getByRole('link', { name: 'Register' }).waitFor();
    expect(await page.title()).toBe('Parley');
    // The skip link leads to the page's main landmark.
    expect(await page.locator('.skip-link').getAttribute('href')).toBe('#main');
    expect(await page.locator('main#main').count()).toBe(1);
    await axe('landing');

    await tabTo(page.getByRole('link', { name: 'Register' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/register$/);
    await expectFocus(mainHeading());
    expect(await mainHeading().textContent()).toBe('Create your account');
    expect(await page.title()).toBe('Create your account – Parley');
    await axe('register');

    await page.setViewportSize({ width: 320, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('signs up with the keyboard alone and lands on the home heading', async () => {
    await tabTo(page.getByLabel('Username'));
    await page.keyboard.type(`keys${Date.now()}`);
    await page.keyboard.press('Tab');
    await page.keyboard.type('Ada Lovelace');
    await page.keyboard.press('Tab');
    await page.keyboard.type(email);
    await tabTo(page.getByRole('button', { name: 'Send code' }));
    await page.keyboard.press('Enter');
    await tabTo(page.getByLabel('Password'));
    await page.keyboard.type(password);
    await tabTo(page.getByLabel('One-time code'));
    await page.keyboard.type(await readCode(server.dataDir, email));
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/list$/);
    await expectFocus(mainHeading());
    expect(await mainHeading().textContent()).toMatch(/Ada Lovelace/);
    expect(await page.title()).toBe('Your bots – Parley');
    await page.getByRole('button', { name: 'Details ELIZA' }).waitFor();
    await axe('home');
  });

  it('the Bots section keeps its place while the catalogue loads (no layout shift)', async () => {
    const shifting = await context.newPage();
    await shifting.setViewportSize({ width: 1024, height: 800 });
    await shifting.addInitScript(() => {
      const shifts: number[] = [];
      (window as unknown as { shifts: number[] }).shifts = shifts;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & {
          value: number;
          hadRecentInput: boolean;
        })[])
          if (!entry.hadRecentInput) shifts.push(entry.value);
      }).observe({ type: 'layout-shift', buffered: true });
    });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await shifting.route('**/api/v1/bot', async (route) => {
      await held;
      await route.continue();
    });
    await shifting.goto(`${server.url}/list`);
    await shifting.getByRole('heading', { name: 'Bots', level: 2 }).waitFor();
    const place = () =>
      shifting.evaluate(() =>
        [...document.querySelectorAll('.toolbar > *')].map((element) => element.getBoundingClientRect().y),
      );
    const before = await place();
    release();
    await shifting.getByRole('button', { name: 'Details ELIZA' }).waitFor();
    await shifting.waitForTimeout(300);
    expect(await place()).toEqual(before);
    const shifts = await shifting.evaluate(() => (window as unknown as { shifts: number[] }).shifts);
    expect(shifts.reduce((sum, value) => sum + value, 0)).toBeLessThan(0.01);
    await shifting.close();
  });

  it('opens bot details with the keyboard: focus on the details heading, Close is the next Tab, Esc returns focus', async () => {
    const details = page.getByRole('button', { name: 'Details ELIZA' });
    await tabTo(details);
    await page.keyboard.press('Enter');
    const heading = panel().getByRole('heading', { name: 'Bot details', level: 2 });
    await expectFocus(heading);
    await panel().getByRole('heading', { name: 'ELIZA', level: 3 }).waitFor();
    await axe('side panel: bot details');
    await page.keyboard.press('Tab');
    await expectFocus(panel().getByRole('button', { name: 'Close side panel' }));
    await page.keyboard.press('Escape');
    await expect.poll(() => panel().count()).toBe(0);
    await expectFocus(details);
  });

  it('opens and closes each side panel view from its header button: Esc closes it and gives focus back; the button toggles it', async () => {
    const header = page.getByRole('navigation', { name: 'Side panel' });
    for (const view of ['Filter bots', 'Bot list', 'Notifications', 'Profile']) {
      const button = header.getByRole('button', { name: new RegExp(`^${view}`) });
      await tabTo(button, 'Shift+Tab');
      expect(await button.getAttribute('aria-expanded')).toBe('false');
      await page.keyboard.press('Enter');
      const heading = panel().getByRole('heading', { name: view, level: 2 });
      await expectFocus(heading);
      expect(await button.getAttribute('aria-expanded')).toBe('true');
      // The panel's Close button is its first stop, not 20 Tabs away.
      await page.keyboard.press('Tab');
      await expectFocus(panel().getByRole('button', { name: 'Close side panel' }));
      if (view === 'Notifications') await panel().locator('.notification').first().waitFor();
      await axe(`side panel: ${view}`);
      await page.keyboard.press('Escape');
      await expect.poll(() => panel().count()).toBe(0);
      await expectFocus(button);
      // The same button opens the view and closes it again.
      await page.keyboard.press('Enter');
      await expectFocus(heading);
      await button.press('Enter');
      await expect.poll(() => panel().count()).toBe(0);
      expect(await button.getAttribute('aria-expanded')).toBe('false');
      await expectFocus(button);
    }
    // The Side panel button reopens the view shown last (Profile), and closes it again.
    const toggle = header.getByRole('button', { name: 'Side panel' });
    await tabTo(toggle);
    await page.keyboard.press('Enter');
    await expectFocus(panel().getByRole('heading', { name: 'Profile', level: 2 }));
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Escape');
    await expect.poll(() => panel().count()).toBe(0);
    await expectFocus(toggle);
  });

  it('opens a bot from the bot list and sends with the keyboard; the reply is read out once, complete', async () => {
    const botList = page
      .getByRole('navigation', { name: 'Side panel' })
      .getByRole('button', { name: 'Bot list' });
    await botList.press('Enter');
    await expectFocus(panel().getByRole('heading', { name: 'Bot list', level: 2 }));
    await tabTo(panel().getByRole('button', { name: 'ELIZA' }));
    await page.keyboard.press('Enter');
    // The list's button is gone with its view: focus goes to the details heading, not to the page.
    await expectFocus(panel().getByRole('heading', { name: 'Bot details', level: 2 }));
    await tabTo(panel().getByRole('link', { name: 'Chat ELIZA' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/topics\/new\?bot=/);
    await expectFocus(mainHeading());
    expect(await page.title()).toBe('New chat – Parley');

    const message = page.getByLabel('Message');
    await tabTo(message);
    await page.keyboard.type('Men are all alike.');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/topics\/[0-9a-f-]{36}$/);
    await page.getByRole('log').getByText('In what way?').waitFor();
    // The chat created by the first message keeps the keyboard in the composer.
    await expectFocus(message);
    expect(await page.title()).toBe('Men are all alike. – Parley');
    // The conversation is the page's main content, its messages' headings one level under the title.
    expect(await page.locator('main#main').getByRole('log').count()).toBe(1);
    expect(await page.getByRole('log').getByRole('heading', { level: 2, name: 'ELIZA' }).count()).toBe(1);
    await axe('conversation with a reply');
  });

  it('stops a streamed reply with the keyboard: focus back in the composer; tokens are not announced one by one', async () => {
    model.script(() => ({ chunks: Array.from({ length: 300 }, (_, index) => `word${index} `), delayMs: 20 }));
    await page.goto(`${server.url}/list`);
    await tabTo(page.getByRole('link', { name: 'Chat Assistant' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/topics\/new\?bot=/);
    const message = page.getByLabel('Message');
    await tabTo(message);
    await page.keyboard.type('Tell me a long story');
    await page.keyboard.press('Enter');
    const log = page.getByRole('log');
    await expect.poll(() => log.textContent()).toContain('word3');
    // The growing reply is in the log for the eye, hidden from the screen reader's live region…
    expect(await log.ariaSnapshot()).not.toContain('word3');
    await page.keyboard.press('Tab');
    await expectFocus(page.getByRole('button', { name: 'Stop' }));
    await page.keyboard.press('Enter');
    await expectFocus(message);
    await log.getByText('Stopped').waitFor();
    // …and the finished one lands in the log once.
    await expect.poll(() => log.ariaSnapshot()).toContain('word3');
    model.script((request) => ({ chunks: ['You said: ', textOf(request.messages.at(-1)?.content)] }));
  });

  it('renames and deletes a conversation with the keyboard; Esc cancels the deletion', async () => {
    const menu = sidebar().getByRole('button', { name: 'Conversation actions: Men are all alike.' });
    await tabTo(menu, 'Shift+Tab');
    await page.keyboard.press('Enter');
    await expectFocus(page.getByRole('menuitem', { name: 'Rename' }));
    await page.keyboard.press('Enter');
    const rename = page.getByRole('dialog', { name: 'Rename conversation' });
    await expectFocus(rename.getByLabel('New title'));
    await axe('rename dialog');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('Therapy session');
    await page.keyboard.press('Enter');
    await expect.poll(() => rename.count()).toBe(0);
    // Focus is on the renamed conversation (its menu button, now named after the new title).
    const renamed = sidebar().getByRole('button', { name: 'Conversation actions: Therapy session' });
    await expectFocus(renamed);

    // The deletion asks first, with focus on Keep: a second Enter does not delete; Esc cancels. Delete is
    // the menu's last item (End), after Rename, Share, Move, Pin and Archive.
    await page.keyboard.press('Enter');
    await page.keyboard.press('End');
    await expectFocus(page.getByRole('menuitem', { name: 'Delete' }));
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('alertdialog', { name: 'Delete this conversation?' });
    await expectFocus(confirm.getByRole('button', { name: 'Keep' }));
    await axe('delete dialog');
    await page.keyboard.press('Escape');
    await expect.poll(() => confirm.count()).toBe(0);
    await expectFocus(renamed);
    await page.keyboard.press('Enter');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await expectFocus(confirm.getByRole('button', { name: 'Keep' }));
    await page.keyboard.press('Enter');
    await expect.poll(() => confirm.count()).toBe(0);
    expect(
      await sidebar()
        .getByRole('link', { name: /Therapy session/ })
        .count(),
    ).toBe(1);
    await expectFocus(renamed);

    await page.keyboard.press('Enter');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await expectFocus(confirm.getByRole('button', { name: 'Keep' }));
    await page.keyboard.press('Tab');
    await expectFocus(confirm.getByRole('button', { name: 'Yes, delete' }));
    await page.keyboard.press('Enter');
    await expect
      .poll(() =>
        sidebar()
          .getByRole('link', { name: /Therapy session/ })
          .count(),
      )
      .toBe(0);
    // Focus goes to the conversation next to it in the list.
    await expectFocus(sidebar().getByRole('link', { name: /Tell me a long story/ }));
  });

  it('logs out with the keyboard, and an alert gives focus back when it closes', async () => {
    const profile = page
      .getByRole('navigation', { name: 'Side panel' })
      .getByRole('button', { name: 'Profile' });
    await profile.press('Enter');
    await expectFocus(panel().getByRole('heading', { name: 'Profile', level: 2 }));
    await tabTo(panel().getByRole('button', { name: 'Log out', exact: true }));
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/landing/);
    await expectFocus(mainHeading());

    await tabTo(page.locator('#main').getByRole('link', { name: 'Log in' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/login/);
    await expectFocus(mainHeading());
    expect(await page.title()).toBe('Log in – Parley');
    await axe('login');
    await tabTo(page.getByLabel('Email'));
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type('not the password');
    await page.keyboard.press('Enter');
    const alert = page.getByRole('alertdialog');
    await expectFocus(alert.getByRole('button', { name: 'OK' }));
    await axe('error alert');
    await page.keyboard.press('Enter');
    await expect.poll(() => alert.count()).toBe(0);
    // Back to what opened it (the password field Enter was pressed in) or, when that is gone, to the main heading.
    await expect
      .poll(() =>
        page.evaluate(() => {
          const active = document.activeElement;
          return active === document.querySelector('#main h1') || !!active?.matches('input[type="password"]');
        }),
      )
      .toBe(true);

    await tabTo(page.getByLabel('Password'));
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(password);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/list$/);
    await expectFocus(mainHeading());
  });

  it('draws a focus ring of 3:1 or more against every background, light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const ratios = await page.evaluate(() => {
        const probe = document.createElement('div');
        document.body.append(probe);
        const rgb = (value: string) => {
          probe.style.color = value;
          return (getComputedStyle(probe).color.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
        };
        const luminance = (value: string) => {
          const [r, g, b] = rgb(value).map((channel) => {
            const c = channel / 255;
            return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
          });
          return 0.2126 * r + 0.7152 * g + 0.0722 * b;
        };
        const ring = luminance('var(--focus-ring)');
        const result = Object.fromEntries(
          ['--bg', '--surface', '--surface-strong', '--code-bg'].map((background) => {
            const other = luminance(`var(${background})`);
            return [background, (Math.max(ring, other) + 0.05) / (Math.min(ring, other) + 0.05)];
          }),
        );
        probe.remove();
        return result;
      });
      for (const [background, ratio] of Object.entries(ratios))
        expect(ratio, `${colorScheme} focus ring on ${background}`).toBeGreaterThanOrEqual(3);
    }
    await page.emulateMedia({ colorScheme: null });
  });

  it('changes the language only on an explicit Apply, not on an arrow key (WCAG 3.2.2)', async () => {
    const languagePage = await browser.newPage({ bypassCSP: true });
    await languagePage.goto(`${server.url}/landing`);
    const picker = languagePage.getByLabel('Language');
    await picker.waitFor();
    await languagePage.evaluate(() => {
      (window as unknown as { stayed: boolean }).stayed = true;
    });
    await picker.focus();
    await languagePage.keyboard.press('ArrowDown');
    const chosen = await picker.inputValue();
    expect(chosen).not.toBe('en');
    await languagePage.waitForTimeout(500);
    expect(await languagePage.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    expect(await languagePage.getAttribute('html', 'lang')).toBe('en');
    await languagePage.keyboard.press('Tab');
    const apply = languagePage.getByRole('button', { name: 'Apply' });
    expect(await apply.evaluate((element) => element === document.activeElement)).toBe(true);
    await languagePage.keyboard.press('Enter');
    await expect.poll(() => languagePage.getAttribute('html', 'lang'), { timeout: 15_000 }).toBe(chosen);
    expect(await languagePage.evaluate(() => localStorage.getItem('language'))).toBe(chosen);
    await languagePage.close();
  });
});
