import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { chatModelMachine } from '../../../../machines/chatModel';
import { call, signUp } from '../../../support/app';
import { done, failed, failedOn } from '../../models';
import type { BrowserModel, PathWorld } from '../runner';
import { errorOf, expectDisabled } from './account';
import { asOwner, networkProblem, ownerToken } from './adminList';
import { apiOf, storeToken } from './session';

// The catalogue the walks chat on: two models of the server's own model server, the second token-priced,
// and a bot offering both (Swift the default) that lets members set temperature and reply length.
const names = ['Swift', 'Deep'] as const;
const context = 1000;

interface Catalogue {
  bot: string;
  /** The real ids of the machine's m1 (Swift) and m2 (Deep). */
  models: Record<string, string>;
  token: string;
}

async function makeCatalogue(world: PathWorld): Promise<Catalogue> {
  await ownerToken(world);
  const tag = Date.now().toString(36);
  const ids: string[] = [];
  for (const [index, name] of names.entries()) {
    const model = await asOwner(world, '/api/v1/admin/model', {
      body: {
        name: `${name} ${tag}`,
        provider: null,
        model: `double-${index + 1}`,
        price: index ? 0.2 : 0.01,
        ...(index ? { inputPrice: 1, outputPrice: 4 } : {}),
        contextTokens: context,
      },
    });
    ids.push(model._id);
  }
  const bot = await asOwner(world, '/api/v1/admin/bot', {
    body: {
      name: `Tuned ${tag}`,
      description: 'Offers two models',
      platform: 'openai',
      model: 'double-1',
      price: 0,
      categories: [],
      models: ids,
      userParameters: true,
      active: true,
    },
  });
  const member = await signUp(apiOf(world));
  return { bot: bot._id, models: { m1: ids[0], m2: ids[1] }, token: member.token };
}

const catalogueOf = (world: PathWorld) => world.shared.catalogue as Promise<Catalogue>;
const picker = (world: PathWorld) => world.page.getByRole('combobox', { name: 'Model' });
const settingsDialog = (world: PathWorld) => world.page.getByRole('dialog', { name: 'Chat settings' });

/**
 * A member's conversation with a bot that offers two models: the picker in the chat's bar (each model
 * with its price once they load; the choice saved on the conversation), and the chat's settings from
 * its menu (temperature and maximum reply length, checked here and by the server against the model).
 */
export const chatModelBrowserModel: BrowserModel = {
  name: 'chatModel',
  chainWalks: true,
  machine: chatModelMachine,
  input: { topicId: 't1', model: 'm1', parameters: {} },
  events: [
    { type: 'LOAD_PRICES' },
    done('fetchPrices', [
      { _id: 'm1', name: 'Swift', price: 0.01 },
      { _id: 'm2', name: 'Deep', price: 0.2, inputPrice: 1, outputPrice: 4 },
    ]),
    failed('fetchPrices'),
    { type: 'CHOOSE', model: 'm2' },
    done('saveChoice', { model: 'm2', parameters: {} }),
    failed('saveChoice'),
    { type: 'OPEN_SETTINGS' },
    { type: 'CHANGE', values: { temperature: '0,7', maxTokens: '300' } },
    { type: 'CHANGE', values: { temperature: '3', maxTokens: '1.5' } },
    { type: 'SAVE' },
    { type: 'CANCEL' },
    done('saveParameters', { model: 'm1', parameters: { temperature: 0.7, maxTokens: 300 } }),
    // The server names the length it refuses (past the model's context) as `parameters.maxTokens`.
    failedOn('saveParameters', 'parameters.maxTokens'),
  ],
  // What the screen shows differently; a length typed or not tells a save the server may refuse.
  serialize: (snapshot) => {
    const { model, draft, problems, error } = snapshot.context;
    return JSON.stringify([snapshot.value, model, draft.maxTokens !== '', problems.length > 0, !!error]);
  },
  // No reply is asked for: a model server is named only for the bot to be one members can chat with.
  server: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
  // The picker asks for the prices as it shows. Then a walk either picks a model or sets the settings
  // (the two are apart: a model choice and the settings form never meet on screen). The server refuses
  // only a length past the model's context, which a path types before it saves.
  possible: (snapshot, event) => {
    const { prices, choice } = snapshot.value as Record<string, string>;
    const { model, draft, error } = snapshot.context;
    if (/fetchPrices|LOAD_PRICES/.test(event.type)) return true;
    if (prices !== 'loaded') return false;
    const settingsTouched =
      draft.maxTokens !== '' || draft.temperature !== '' || !snapshot.matches({ settings: 'closed' });
    if (event.type === 'CHOOSE' || /saveChoice/.test(event.type)) return !settingsTouched;
    if (model !== 'm1' || error || choice !== 'idle') return false;
    if (event.type === 'xstate.error.actor.saveParameters') return draft.maxTokens !== '';
    return true;
  },
  requests: {
    fetchPrices: { method: 'GET', path: /^\/api\/v1\/model$/ },
    saveChoice: { method: 'PATCH', path: /^\/api\/v1\/topic\/[^/]+$/, body: /"model"/ },
    saveParameters: {
      method: 'PATCH',
      path: /^\/api\/v1\/topic\/[^/]+$/,
      body: /"parameters"/,
      fails: 'server',
    },
  },
  start: async (world) => {
    world.shared.catalogue ??= makeCatalogue(world);
    const { bot, token } = await catalogueOf(world);
    // A conversation of its own each walk: a choice saved by one is not another's.
    const topic = await call(apiOf(world), '/api/v1/topic', { token, body: { bot } });
    world.data.topic = topic.body._id;
    await storeToken(world, token);
    // The conversations first: the chat (and its picker) opens with LOAD_PRICES.
    await world.page.goto(`${world.server.url}/list`);
  },
  perform: async (world, event, index) => {
    const { page } = world;
    const { models } = await catalogueOf(world);
    if (!event.type.startsWith('xstate.')) delete world.data.focusBack;
    switch (event.type) {
      case 'LOAD_PRICES':
        await page.goto(`${world.server.url}/topics/${world.data.topic}`);
        break;
      case 'CHOOSE':
        await picker(world).selectOption(models[event.model as string]);
        break;
      case 'OPEN_SETTINGS':
        await page.getByRole('button', { name: 'Conversation actions' }).click();
        await page.getByRole('menuitem', { name: 'Chat settings' }).click();
        break;
      case 'CHANGE': {
        const values = event.values as { temperature: string; maxTokens: string };
        await settingsDialog(world).getByLabel('Temperature').fill(values.temperature);
        await settingsDialog(world).getByLabel('Maximum reply length (tokens)').fill(values.maxTokens);
        break;
      }
      case 'SAVE':
        // A save the server refuses: a length past the model's context (the form takes any whole one).
        if (world.events[index + 1]?.type === 'xstate.error.actor.saveParameters')
          await settingsDialog(world)
            .getByLabel('Maximum reply length (tokens)')
            .fill(String(context * 10));
        await settingsDialog(world).getByRole('button', { name: 'Save' }).click();
        break;
      case 'CANCEL':
        world.data.focusBack = 'Conversation actions';
        await page.keyboard.press('Escape');
        break;
    }
  },
  expectScreen: async (world, snapshot: AnyMachineSnapshot) => {
    const { page } = world;
    const { prices, choice, settings } = snapshot.value as Record<string, string>;
    const { model, picked, error, problems } = snapshot.context;
    const { models } = await catalogueOf(world);
    if (prices === 'idle') {
      // The conversations, before the chat opens.
      expect(await picker(world).count()).toBe(0);
      return;
    }
    // The bot's models, its default first; each with its price once the prices are in.
    const options = await picker(world).locator('option').allTextContents();
    expect(options.map((text) => text.split(' ')[0])).toEqual([...names]);
    if (prices === 'loaded') {
      expect(options[0]).toMatch(/ · \D*0\.01 per reply$/);
      expect(options[1]).toMatch(
        / · \D*0\.20 per reply \+ \D*1\.00 \/ \D*4\.00 per million tokens read \/ written$/,
      );
    } else expect(options.every((text) => !text.includes('·'))).toBe(true);
    // The conversation's model (or the one being saved); the bar's price follows it.
    expect(await picker(world).inputValue()).toBe(models[(picked ?? model) as string]);
    await expectDisabled(picker(world), choice === 'choosing');
    if (prices === 'loaded' && choice === 'idle')
      expect(await page.locator('.chat-bar-bot').textContent()).toContain(
        model === 'm2' ? '0.20 per reply' : '0.01 per reply',
      );
    const alert = page.locator('.chat-model').getByRole('alert');
    expect(await alert.count()).toBe(error ? 1 : 0);
    if (error) expect(await alert.textContent()).toMatch(networkProblem);

    const dialog = settingsDialog(world);
    expect(await dialog.count()).toBe(settings === 'closed' ? 0 : 1);
    if (settings === 'closed') {
      if (world.data.focusBack)
        expect(
          await page
            .getByRole('button', { name: world.data.focusBack as string })
            .evaluate((button) => button === document.activeElement),
        ).toBe(true);
      return;
    }
    await expectDisabled(dialog.getByRole('button', { name: 'Save' }), settings === 'saving');
    const temperature = dialog.getByLabel('Temperature');
    const length = dialog.getByLabel('Maximum reply length (tokens)');
    const problemOf = (field: string) =>
      problems.find((problem: { field: string | null }) => problem.field === field);
    if (problemOf('temperature'))
      expect(await errorOf(temperature)).toMatch(/Enter a temperature from 0 to 2\.$/);
    else expect(await temperature.getAttribute('aria-invalid')).toBeNull();
    if (problemOf('maxTokens'))
      expect(await errorOf(length)).toMatch(
        /(Enter a whole number of tokens of 1 or more\.|The maximum reply length must be within the model's context of 1000 tokens\.)$/,
      );
    else expect(await length.getAttribute('aria-invalid')).toBeNull();
    // Opened, focus is in the dialog (on its first field).
    expect(await dialog.evaluate((box) => box.contains(document.activeElement))).toBe(true);
  },
};
