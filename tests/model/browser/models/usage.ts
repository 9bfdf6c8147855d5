import { expect } from 'vitest';
import { usageMachine } from '../../../../machines/usage';
import { chartLabelProblems } from '../../../support/fit';
import { done, failed } from '../../models';
import type { BrowserModel } from '../runner';
import { expectDisabled } from './account';
import { endsAtLogOut, expectLoggedOut, logOut, networkProblem, openAdmin, showSection } from './adminList';

const report = {
  days: 30,
  since: '2026-01-01',
  currency: 'EUR',
  totals: { messages: 0, replies: 0, spend: 0 },
  perDay: [],
  perBot: [],
  perMember: [],
};

/** The usage screen of the seeded owner: its figures, its Refresh and Retry, its CSV download; left by logging out. */
export const usageBrowserModel: BrowserModel = {
  name: 'usage',
  chainWalks: true,
  allows: endsAtLogOut,
  machine: usageMachine,
  events: [
    { type: 'LOAD' },
    { type: 'RELOAD' },
    { type: 'DOWNLOAD' },
    { type: 'RESET' },
    done('fetchUsage', report),
    failed('fetchUsage'),
    done('downloadUsage'),
    failed('downloadUsage'),
  ],
  serialize: (snapshot) => {
    const { report: shown, error, downloadError } = snapshot.context;
    return JSON.stringify([snapshot.value, !!shown, !!error, !!downloadError]);
  },
  // The CSV goes with figures on screen, the figures are read again with no download under way; a
  // failed download is tried again; a RELOAD comes from Retry when the figures failed, from Refresh
  // once they are shown.
  possible: (snapshot, event) => {
    const { report: state, download } = snapshot.value as Record<string, string>;
    if (event.type === 'RESET') return state === 'idle';
    if (snapshot.context.downloadError) return /DOWNLOAD|downloadUsage$/.test(event.type);
    if (/DOWNLOAD|downloadUsage$/.test(event.type)) return state === 'loaded';
    if (event.type === 'RELOAD') return state === 'failed' || (state === 'loaded' && download === 'idle');
    return download === 'idle';
  },
  requests: {
    fetchUsage: { method: 'GET', path: /^\/api\/v1\/admin\/usage\?days=30$/ },
    downloadUsage: { method: 'GET', path: /^\/api\/v1\/admin\/usage\?days=30&format=csv$/ },
  },
  start: async (world) => {
    await openAdmin(
      world,
      '/admin',
      'Bots',
      world.events.some((event) => event.type === 'RESET'),
    );
    world.page.on('download', (download) => {
      world.data.file = download.suggestedFilename();
    });
  },
  perform: async (world, event) => {
    const { page } = world;
    if (event.type === 'LOAD') {
      await showSection(world, 'Usage');
    } else if (event.type === 'RELOAD') {
      const retry = page.getByRole('button', { name: 'Retry' });
      await ((await retry.count()) ? retry : page.getByRole('button', { name: 'Refresh' })).click();
    } else if (event.type === 'DOWNLOAD') await page.getByRole('link', { name: 'Download CSV' }).click();
    else if (event.type === 'RESET') await logOut(world);
    else if (event.type === 'xstate.done.actor.downloadUsage') world.data.downloaded = true;
  },
  expectScreen: async (world, snapshot) => {
    const { page } = world;
    if (world.data.out) return expectLoggedOut(world);
    const { report: state, download } = snapshot.value as Record<string, string>;
    const { report: shown, error, downloadError } = snapshot.context;
    await page
      .getByRole('heading', { name: state === 'idle' ? 'Bots' : 'Usage', level: 1 })
      .waitFor({ timeout: 100 });
    if (state === 'idle') return;
    const main = page.getByRole('main');
    expect(await main.getByRole('status').filter({ hasText: 'Loading…' }).count()).toBe(
      state === 'loading' && !shown ? 1 : 0,
    );
    const retry = main.getByRole('alert').filter({ has: page.getByRole('button', { name: 'Retry' }) });
    expect(await retry.count()).toBe(state === 'failed' ? 1 : 0);
    if (error && state === 'failed') expect(await retry.textContent()).toMatch(networkProblem);
    // The figures: three charts, their labels legible and apart, and tables per bot and per member.
    expect(await main.getByRole('img', { name: /per day/ }).count()).toBe(shown ? 3 : 0);
    expect(await chartLabelProblems(page)).toEqual([]);
    expect(await main.getByRole('table', { name: 'Per member' }).count()).toBe(shown ? 1 : 0);
    // Refresh goes with figures on screen, and says so while it reads them.
    const refresh = main.getByRole('button', { name: /^Refresh/ });
    expect(await refresh.count()).toBe(shown ? 1 : 0);
    if (shown) {
      expect(await refresh.textContent()).toBe(state === 'loading' ? 'Refreshing…' : 'Refresh');
      await expectDisabled(refresh, state === 'loading');
    }
    const csv = main.getByRole('link', { name: 'Download CSV' });
    expect(await csv.getAttribute('aria-disabled')).toBe(String(download === 'downloading'));
    const problem = main.getByRole('alert').filter({ hasText: networkProblem });
    expect(await problem.count()).toBe((downloadError ? 1 : 0) + (state === 'failed' ? 1 : 0));
    if (world.data.downloaded) expect(world.data.file).toBe('parley-app-usage-30d.csv');
  },
};
