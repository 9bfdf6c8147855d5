// @vitest-environment jsdom
import { cleanup, fireEvent, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import { type BotRecord, botsMachine, filterBots } from '../../../machines/bots';
import { knownLanguage, languageFromQuery, languageMachine } from '../../../machines/language';
import { organizationMachine } from '../../../machines/organization';
import { apiServerForTests, loggedInUser, renderApp, screen, settle } from './app';

const server = apiServerForTests();

describe('organization check: generated paths on the rendered app', () => {
  // The real server answers for the machine: a known subdomain resolves, an unknown one fails.
  const hostFor = {
    resolves: 'acme.parley.localhost:3000',
    fails: 'nowhere.parley.localhost:3000',
    app: 'parley.example',
  };
  const cases = [
    ...getShortestPaths(organizationMachine, {
      input: { host: hostFor.resolves, defaultOrganization: 'app' },
      events: [
        {
          type: 'xstate.done.actor.fetchOrganization',
          output: { _id: 'o', subdomain: 'acme', name: 'Acme Corporation' },
        },
      ] as never,
    }).map((path) => ({ host: hostFor.resolves, path })),
    ...getShortestPaths(organizationMachine, {
      input: { host: hostFor.fails, defaultOrganization: 'app' },
      events: [{ type: 'xstate.error.actor.fetchOrganization', error: new Error('404') }] as never,
    }).map((path) => ({ host: hostFor.fails, path })),
    ...getShortestPaths(organizationMachine, {
      input: { host: hostFor.app, defaultOrganization: 'acme' },
    }).map((path) => ({
      host: hostFor.app,
      path,
    })),
  ].filter(({ path }) => ['allowed', 'blocked'].includes(path.state.value as string));

  it.each(cases.map((item) => [item.host, item.path.state.value as string, item] as const))(
    '%s → %s',
    async (host, value) => {
      await renderApp(server, '/landing', { host });
      if (value === 'allowed') {
        await screen.findByRole('link', { name: 'Register' });
        const stored = JSON.parse(localStorage.getItem('currentOrganization') ?? 'null');
        expect(stored?.subdomain ?? 'app').toBe(host.startsWith('acme') ? 'acme' : 'app');
        if (host.startsWith('acme')) await screen.findByRole('link', { name: 'Acme Corporation' });
      } else {
        await screen.findByRole('banner');
        await settle(200);
        expect(screen.queryByRole('link', { name: 'Register' })).toBeNull();
        expect(screen.queryByRole('alertdialog')).toBeNull();
        expect(localStorage.getItem('currentOrganization')).toBeNull();
      }
    },
  );
});

describe('language: generated paths on the rendered app', () => {
  const inputs = [
    { storedLanguage: null, search: '' },
    { storedLanguage: 'de', search: '' },
    { storedLanguage: null, search: '?language=fr' },
    { storedLanguage: 'de', search: '?language=xx' },
  ];
  const cases = inputs.flatMap((input) =>
    getShortestPaths(languageMachine, { input, events: [{ type: 'CHANGE', language: 'he' }] }).map(
      (path) => ({ input, path }),
    ),
  );

  it.each(cases.map((item) => [JSON.stringify(item.input), String(item.path.state.value), item] as const))(
    '%s → %s',
    async (_label, value, { input, path }) => {
      if (input.storedLanguage) localStorage.setItem('language', input.storedLanguage);
      const { reloads } = await renderApp(server, `/landing${input.search}`);
      if (knownLanguage(languageFromQuery(input.search))) {
        // ?language= stores and reloads before anything is painted.
        await waitFor(() => expect(reloads).toHaveLength(1));
        expect(localStorage.getItem('language')).toBe('fr');
        return;
      }
      const picker = await screen.findByLabelText(input.storedLanguage === 'de' ? 'Sprache' : 'Language');
      // An unknown one has only left the address.
      expect(window.location.search).toBe('');
      expect((picker as HTMLSelectElement).value).toBe(input.storedLanguage ?? 'en');
      for (const step of path.steps.slice(1)) {
        fireEvent.change(picker, { target: { value: (step.event as { language: string }).language } });
        // A picker in a form applies the choice only when it is submitted (WCAG 3.2.2).
        const form = (picker as HTMLSelectElement).form;
        if (form) fireEvent.submit(form);
      }
      await settle();
      expect(reloads).toHaveLength(value === 'reloading' ? 1 : 0);
      expect(localStorage.getItem('language')).toBe(value === 'reloading' ? 'he' : input.storedLanguage);
    },
  );
});

describe('bots: generated paths on the rendered app', () => {
  it('shows, for every generated path, the active bots of the chosen categories', async () => {
    await loggedInUser(server);
    const answer = await fetch(`${server.url}/api/v1/bot`, {
      headers: { authorization: `Bearer ${localStorage.getItem('token')}` },
    });
    const bots = (await answer.json()) as (BotRecord & { categories: { _id: string; name: string }[] })[];
    const tools = bots.flatMap((bot) => bot.categories).find((category) => category.name === 'Tools');
    if (!tools) throw new Error('the seed has a Tools category');
    const paths = getShortestPaths(botsMachine, {
      events: [
        { type: 'LOAD' },
        { type: 'xstate.done.actor.fetchBots', output: bots },
        { type: 'FILTER', categoryIds: [tools._id] },
        { type: 'FILTER', categoryIds: [] },
      ] as never,
    }).filter((path) => path.state.value === 'loaded');
    expect(paths.length).toBeGreaterThan(1);
    for (const path of paths) {
      await renderApp(server, '/list');
      await screen.findByRole('button', { name: 'Details ELIZA' });
      for (const step of path.steps) {
        const event = step.event as { type: string; categoryIds?: string[] };
        if (event.type !== 'FILTER') continue;
        fireEvent.click(
          screen.getByRole('button', { name: event.categoryIds?.length ? 'Tools' : 'All categories' }),
        );
        await settle();
      }
      const expected = filterBots(bots, path.state.context.categoryIds).map((bot) => bot.name);
      const shown = screen.getAllByRole('heading', { level: 4 }).map((heading) => heading.textContent);
      expect(shown.sort()).toEqual([...expected].sort());
      cleanup();
    }
  }, 120_000);
});
