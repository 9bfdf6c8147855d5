import type { Page, Route } from 'playwright-core';
import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { type BotDraft, botEditorMachine, draftProblems, type TryLine } from '../../../../machines/botEditor';
import { type OpenAiDouble, startOpenAiDouble } from '../../../support/openai-double';
import { done, failed } from '../../models';
import { type BrowserModel, type ModelEvent, type PathWorld, until } from '../runner';
import { errorOf, expectDisabled } from './account';
import { asOwner, networkProblem, openAdmin } from './adminList';

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const saved = {
  _id: 'b1',
  name: 'Sage',
  description: '',
  platform: 'builtin',
  engine: 'eliza',
  price: 0,
  categories: [],
  active: true,
  position: null,
};
const labels: Partial<Record<keyof BotDraft, string>> = {
  name: 'Name',
  price: 'Price per reply',
  engine: 'Engine',
  model: 'Model',
};
const change = (values: Partial<BotDraft>): ModelEvent => ({ type: 'CHANGE', values });
const valuesOf = (event: ModelEvent) => (event.values ?? {}) as Partial<BotDraft>;
const lastLine = (snapshot: AnyMachineSnapshot) => (snapshot.context.transcript as TryLine[]).at(-1);

/** Two providers of the organization, both the OpenAI double (its model list: double-1, double-2). */
async function providers(world: PathWorld) {
  const double = await startOpenAiDouble();
  world.shared.doubles = [...((world.shared.doubles as OpenAiDouble[] | undefined) ?? []), double];
  const ids: Record<string, string> = {};
  for (const key of ['p1', 'p2']) {
    const body = { name: `Double ${key} ${unique()}`, baseUrl: double.url, apiKey: 'sk-double' };
    ids[key] = (await asOwner(world, '/api/v1/admin/provider', { body }))._id;
  }
  return ids;
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

/**
 * A new bot's editor (/admin/bots/new) of the seeded owner: its form, the model list of the provider
 * chosen, the bot saved (its address becomes its own) and tried out in the chat beside it.
 */
export const botEditorBrowserModel: BrowserModel = {
  name: 'botEditor',
  chainWalks: true,
  machine: botEditorMachine,
  input: { botId: null },
  // Slow built-in replies, so one can be watched and stopped; providers on this machine's double.
  server: { BUILTIN_TOKEN_DELAY_MS: '150', ALLOW_PRIVATE_PROVIDER_URLS: 'true' },
  finish: async (shared) => {
    await Promise.all(((shared.doubles as OpenAiDouble[] | undefined) ?? []).map((double) => double.close()));
  },
  events: [
    { type: 'RETRY' },
    done('loadEditor', {
      bot: null,
      providers: [
        { _id: 'p1', name: 'A' },
        { _id: 'p2', name: 'B' },
      ],
      categories: [],
      groups: [],
    }),
    failed('loadEditor'),
    change({ name: 'Sage' }),
    change({ platform: 'builtin' }),
    change({ engine: 'eliza' }),
    change({ name: ' ', price: '-1' }),
    change({ provider: 'p1', model: 'double-1' }),
    change({ provider: 'p2' }),
    change({ description: 'Answers' }),
    { type: 'SAVE' },
    done('saveBot', saved),
    failed('saveBot'),
    done('fetchModels', ['double-1', 'double-2']),
    failed('fetchModels'),
    { type: 'RETRY_MODELS' },
    { type: 'SEND_TRY', text: 'Hello' },
    { type: 'TRY_TOKEN', text: 'Hi' },
    { type: 'TRY_DONE' },
    { type: 'TRY_FAILED', message: 'The reply could not be received.' },
    { type: 'STOP_TRY' },
    { type: 'CLEAR_TRY' },
  ],
  serialize: (snapshot) => {
    const { botId, draft, problems, models, modelsFor, modelsError, transcript, tryError } = snapshot.context;
    return JSON.stringify([
      snapshot.value,
      botId,
      draftProblems(draft).length,
      draft.name,
      draft.platform,
      draft.engine,
      draft.provider,
      draft.description,
      problems.map((problem: { field: string | null }) => problem.field),
      models.length,
      modelsFor,
      !!modelsError,
      transcript.length,
      !!lastLine(snapshot)?.text,
      !!tryError,
    ]);
  },
  // One scenario at a time: the bot named, made built-in (ELIZA), saved and tried; a form with
  // problems; a provider's model list. A call under way is answered before anything else.
  possible: (snapshot, event) => {
    const { form, models, tryOut } = snapshot.value as Record<string, string>;
    const { draft, transcript } = snapshot.context as { draft: BotDraft; transcript: TryLine[] };
    const pristine = !draft.name && draft.platform === 'openai' && !draft.provider;
    const worded = !!lastLine(snapshot)?.text;
    if (form === 'loading' || form === 'failed') return /RETRY|loadEditor$/.test(event.type);
    if (tryOut === 'replying')
      return (
        event.type === 'STOP_TRY' ||
        (event.type === 'TRY_TOKEN'
          ? !worded
          : event.type === 'TRY_DONE'
            ? worded
            : event.type === 'TRY_FAILED' && !worded)
      );
    if (models === 'loading') return event.type.endsWith('fetchModels');
    if (form === 'saving')
      return (
        event.type === 'xstate.error.actor.saveBot' ||
        (event.type.endsWith('done.actor.saveBot') && draft.engine === 'eliza')
      );
    if (transcript.length) return event.type === 'CLEAR_TRY';
    const values = valuesOf(event);
    switch (event.type) {
      case 'CHANGE':
        if (values.description) return form === 'saved';
        if (form !== 'editing') return false;
        if (values.name === 'Sage' || values.price || values.model) return pristine;
        if (values.platform) return draft.name === 'Sage' && draft.platform === 'openai';
        if (values.engine) return draft.platform === 'builtin' && !draft.engine;
        return draft.provider === 'p1';
      case 'SAVE':
        return draft.engine === 'eliza' || draft.name === ' ';
      case 'SEND_TRY':
        return form === 'saved';
      case 'RETRY_MODELS':
        return models === 'failed';
      default:
        return false;
    }
  },
  requests: {
    // The editor also reads the providers; the categories, read with them, stand for both.
    loadEditor: { method: 'GET', path: /^\/api\/v1\/admin\/category$/ },
    saveBot: { method: 'POST|PATCH', path: /^\/api\/v1\/admin\/bot(\/[^/]+)?$/ },
    fetchModels: { method: 'GET', path: /^\/api\/v1\/admin\/provider\/[^/]+\/models$/ },
  },
  start: async (world) => {
    world.shared.providers ??= await providers(world);
    world.data.name = `Sage ${unique()}`;
    await openAdmin(world, '/admin/bots/new', 'New bot');
  },
  perform: async (world, event, index) => {
    const { page, events } = world;
    const ids = world.shared.providers as Record<string, string>;
    const values = valuesOf(event);
    switch (event.type) {
      case 'RETRY':
        await page.getByRole('button', { name: 'Retry' }).click();
        break;
      case 'CHANGE':
        if (values.name)
          await field(page, 'Name').fill(values.name === 'Sage' ? (world.data.name as string) : values.name);
        if (values.price) await field(page, 'Price per reply').fill(values.price);
        if (values.platform) await field(page, 'Platform').selectOption(values.platform);
        if (values.engine) await field(page, 'Engine').selectOption(values.engine);
        if (values.provider) await field(page, 'Provider').selectOption(ids[values.provider]);
        if (values.model) await field(page, 'Model').fill(values.model);
        if (values.description) await field(page, 'Description').fill(values.description);
        break;
      case 'SAVE':
        await page.getByRole('button', { name: 'Save' }).click();
        break;
      case 'RETRY_MODELS':
        await page.getByRole('button', { name: 'Try again' }).click();
        break;
      case 'SEND_TRY':
        // A network failure of the try-out, or a Stop, when the path says so: the request is held until
        // then, so the reply under way is seen first (and a fast reply cannot end before Stop).
        // A reply's first word is held too: checking the state before it (axe) can outlast a whole
        // ELIZA reply on a busy machine, and then its words were never seen while it replied.
        world.data.held = undefined;
        if (['TRY_FAILED', 'STOP_TRY', 'TRY_TOKEN'].includes(events[index + 1]?.type ?? ''))
          await page.route(
            '**/api/v1/admin/bot/*/try',
            (route) => {
              world.data.held = route;
            },
            { times: 1 },
          );
        await page.getByLabel('Message to try').fill(event.text as string);
        await page.getByRole('button', { name: 'Send' }).click();
        break;
      case 'TRY_TOKEN':
        // The held reply goes on: its words come in while the screen is checked.
        await until(async () => expect(world.data.held).toBeDefined());
        await (world.data.held as Route).continue();
        break;
      case 'TRY_FAILED':
        await until(async () => expect(world.data.held).toBeDefined());
        await (world.data.held as Route).abort('failed');
        break;
      case 'STOP_TRY':
        await page.getByRole('button', { name: 'Stop' }).click();
        // The page gave up the request: the held one goes nowhere.
        await (world.data.held as Route | undefined)?.abort('failed').catch(() => {});
        break;
      case 'CLEAR_TRY':
        await page.getByRole('button', { name: 'Clear' }).click();
        break;
    }
  },
  expectScreen: async (world, snapshot) => {
    const { page } = world;
    const { form, models, tryOut } = snapshot.value as Record<string, string>;
    const context = snapshot.context;
    const draft = context.draft as BotDraft;
    const main = page.getByRole('main');
    await page
      .getByRole('heading', { name: context.botId ? (world.data.name as string) : 'New bot', level: 1 })
      .waitFor({ timeout: 100 });
    expect(await main.getByRole('status').filter({ hasText: 'Loading…' }).count()).toBe(
      form === 'loading' ? 1 : 0,
    );
    const retry = main.getByRole('alert').filter({ has: page.getByRole('button', { name: 'Retry' }) });
    expect(await retry.count()).toBe(form === 'failed' ? 1 : 0);
    if (form === 'failed') expect(await retry.textContent()).toMatch(networkProblem);
    if (form === 'loading' || form === 'failed') return;

    // Once saved, the bot has its own address.
    expect(new URL(page.url()).pathname).toMatch(context.botId ? /^\/admin\/bots\/(?!new)[^/]+$/ : /\/new$/);
    const save = main.getByRole('button', { name: 'Save' });
    await expectDisabled(save, form === 'saving');
    expect(
      await main
        .getByRole('status')
        .filter({ hasText: /^Saved$/ })
        .count(),
    ).toBe(form === 'saved' ? 1 : 0);
    expect(await field(page, 'Platform').inputValue()).toBe(draft.platform);
    expect(await field(page, 'Engine').count()).toBe(draft.platform === 'builtin' ? 1 : 0);
    // Each problem next to its field; one of the whole form (the network) above Save.
    const problems = context.problems as { field: keyof BotDraft | null; message: string }[];
    for (const [key, label] of Object.entries(labels)) {
      const input = field(page, label);
      if ((await input.count()) === 0) continue;
      if (problems.some((problem) => problem.field === key)) expect(await errorOf(input)).toMatch(/./);
      else expect(await input.getAttribute('aria-invalid')).toBeNull();
    }
    const formProblem = main.getByRole('alert').filter({ hasText: networkProblem });
    expect(await formProblem.count()).toBe(
      (problems.some((problem) => problem.field === null) ? 1 : 0) + (context.tryError ? 1 : 0),
    );
    // The model list of the provider chosen: asked for, listed, or said to have failed.
    if (draft.platform === 'openai') {
      const ids = world.shared.providers as Record<string, string>;
      expect(await field(page, 'Provider').inputValue()).toBe(draft.provider ? ids[draft.provider] : '');
      const hint = await field(page, 'Model').evaluate((input) =>
        (input.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' '),
      );
      if (models === 'loading') expect(hint).toBe('Loading…');
      else if (models === 'failed') expect(hint).toMatch(networkProblem);
      else if (models === 'loaded') expect(hint).toMatch(/provider’s models/);
      // A list that failed can be asked for again.
      expect(await main.getByRole('button', { name: 'Try again' }).count()).toBe(models === 'failed' ? 1 : 0);
      // (While another provider's list is asked for, the last one's stays.)
      expect(await page.locator('#bot-models option').count()).toBe(context.models.length);
    }
    // The try-out: only for a saved bot; its transcript, Stop while it replies, Clear after.
    const chat = main.getByRole('region', { name: 'Try it' });
    if (!context.botId) {
      await chat.getByText('Save the bot to try it out.').waitFor({ timeout: 100 });
      return;
    }
    const transcript = context.transcript as TryLine[];
    expect(await chat.getByRole('listitem').count()).toBe(transcript.length);
    const replying = tryOut === 'replying';
    expect(await chat.getByRole('button', { name: 'Stop' }).count()).toBe(replying ? 1 : 0);
    expect(await chat.getByRole('button', { name: 'Send' }).count()).toBe(replying ? 0 : 1);
    expect(await chat.getByRole('button', { name: 'Clear' }).count()).toBe(
      transcript.length && !replying ? 1 : 0,
    );
    expect(await chat.getByRole('alert').count()).toBe(context.tryError ? 1 : 0);
    // A reply begun shows its words.
    if (lastLine(snapshot)?.text)
      expect(await chat.getByRole('listitem').last().textContent()).not.toMatch(/^Bot: (…)?$/);
  },
};
