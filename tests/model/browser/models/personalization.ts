import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { type Instructions, personalizationMachine } from '../../../../machines/personalization';
import { signUp } from '../../../support/app';
import { done, failed } from '../../models';
import type { BrowserModel, PathWorld } from '../runner';
import { errorOf, expectDisabled } from './account';
import { networkProblem } from './adminList';
import { apiOf, openProfile, storeToken } from './session';

const text = 'Answer briefly, with units.';
const tooLong = 'x'.repeat(3001);
const fresh: Instructions = { text: '', useMemory: true };

const section = ({ page }: PathWorld) =>
  page.getByRole('complementary').getByRole('region', { name: 'Personalization' });
const instructionsOf = (snapshot: AnyMachineSnapshot) => snapshot.context.instructions as Instructions;

/**
 * Profile → Personalization of a new member (each path its own): the custom instructions, saved (too
 * long is said at the field), and the "Use memory" switch; each request held until the path ends it.
 * The text is saved before the switch is turned off, and nothing after: the server's answers are then
 * what the events say they are.
 */
export const personalizationBrowserModel: BrowserModel = {
  name: 'personalization',
  chainWalks: true,
  machine: personalizationMachine,
  events: [
    done('loadInstructions', fresh),
    failed('loadInstructions'),
    { type: 'RETRY' },
    { type: 'SAVE', text: tooLong },
    { type: 'SAVE', text },
    done('saveText', { text, useMemory: true }),
    failed('saveText'),
    { type: 'SET_MEMORY', on: false },
    done('saveSwitch', { text, useMemory: false }),
    failed('saveSwitch'),
  ],
  serialize: (snapshot) => {
    const { text: stored, useMemory } = instructionsOf(snapshot);
    return JSON.stringify([snapshot.value, stored !== '', useMemory]);
  },
  // Text is saved while memory is on; the switch turns off once the text is stored.
  possible: (snapshot, event) => {
    const { text: stored, useMemory } = instructionsOf(snapshot);
    if (event.type === 'SAVE') return useMemory;
    if (event.type === 'SET_MEMORY') return useMemory && stored === text;
    return true;
  },
  requests: {
    loadInstructions: { method: 'GET', path: /^\/api\/v1\/user\/me\/instructions$/ },
    saveText: { method: 'PUT', path: /^\/api\/v1\/user\/me\/instructions$/, body: /"text"/ },
    saveSwitch: { method: 'PUT', path: /^\/api\/v1\/user\/me\/instructions$/, body: /"useMemory"/ },
  },
  start: async (world) => {
    const member = await signUp(apiOf(world));
    await storeToken(world, member.token);
    await world.page.goto(`${world.server.url}/list`);
    await openProfile(world);
    await section(world).waitFor();
  },
  perform: async (world, event, index) => {
    world.data.step = index + 1;
    const form = section(world);
    switch (event.type) {
      case 'RETRY':
        await form.getByRole('button', { name: 'Retry' }).click();
        break;
      case 'SAVE':
        await form.getByLabel('Custom instructions').fill(event.text as string);
        await form.getByRole('button', { name: 'Save', exact: true }).click();
        break;
      case 'SET_MEMORY':
        await form.getByRole('switch', { name: /Use memory/ }).click();
        break;
    }
  },
  expectScreen: async (world, snapshot) => {
    const form = section(world);
    await form.waitFor({ timeout: 100 });
    const { problem } = snapshot.context as { problem: { field: string | null; message: string } | null };
    const instructions = instructionsOf(snapshot);
    expect(await form.getByRole('status').filter({ hasText: 'Loading…' }).count()).toBe(
      snapshot.matches('loading') ? 1 : 0,
    );
    const retry = form.getByRole('alert').filter({ has: world.page.getByRole('button', { name: 'Retry' }) });
    expect(await retry.count()).toBe(snapshot.matches('failed') ? 1 : 0);
    if (snapshot.matches('failed')) expect(await retry.textContent()).toMatch(networkProblem);
    const area = form.getByLabel('Custom instructions');
    expect(await area.count()).toBe(snapshot.matches('loading') || snapshot.matches('failed') ? 0 : 1);
    if (!(await area.count())) return;
    // What was typed last stays in the field; before anything is typed, the text as stored.
    const steps = world.events.slice(0, (world.data.step as number | undefined) ?? 0);
    const typed = steps.filter((event) => event.type === 'SAVE').at(-1)?.text as string | undefined;
    if (!snapshot.matches('saving')) expect(await area.inputValue()).toBe(typed ?? instructions.text);
    // A problem with the text at the field, one about no field (the network) for the form.
    if (problem?.field === 'text') expect(await errorOf(area)).toContain(problem.message);
    else expect(await area.getAttribute('aria-invalid')).toBeNull();
    const alert = form.getByRole('alert');
    expect(await alert.count()).toBe(problem && problem.field === null ? 1 : 0);
    if (problem && problem.field === null) expect(await alert.textContent()).toMatch(networkProblem);
    const save = form.getByRole('button', { name: /^(Save|Saving…)$/ });
    await expectDisabled(save, snapshot.matches('saving'));
    expect(await save.textContent()).toBe(snapshot.matches('saving') ? 'Saving…' : 'Save');
    expect(await form.getByRole('status').textContent()).toBe(snapshot.matches('saved') ? 'Saved' : '');
    // The switch as clicked while it is saved; as stored otherwise (a refusal puts it back).
    const useMemory = form.getByRole('switch', { name: /Use memory/ });
    expect(await useMemory.isChecked()).toBe(instructions.useMemory);
    await expectDisabled(useMemory, snapshot.matches('switching'));
  },
};
