import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { readAloudMachine } from '../../../../machines/readAloud';
import { voiceInputMachine } from '../../../../machines/voiceInput';
import { admin, loginOwner } from '../../../server/admin/support';
import { call, signUp } from '../../../support/app';
import { launchWithMicrophone } from '../../../support/browser';
import type { OpenAiDouble } from '../../../support/openai-double';
import { toneWav } from '../../../support/wav';
import { done, failed } from '../../models';
import type { BrowserModel, ModelEvent, PathWorld } from '../runner';
import { networkProblem } from './adminList';
import { apiOf, openProfile, storeToken } from './session';

/** Chromium with a fake microphone playing a tone the test wrote. */
function launch() {
  const wav = join(mkdtempSync(join(tmpdir(), 'parley-voice-')), 'tone.wav');
  writeFileSync(wav, toneWav(1));
  return launchWithMicrophone(wav);
}

/** The organization's voice: speech on (the server reads aloud) or off (the browser does). */
async function configure(world: PathWorld, speech: boolean) {
  const server = apiOf(world);
  const owner = await loginOwner(server, 'app');
  const answer = await admin(server, owner, '/settings', {
    method: 'PATCH',
    body: {
      speech: {
        transcriptionModel: 'whisper-1',
        speechModel: speech ? 'tts-1' : null,
        voices: speech ? ['alloy', 'nova'] : [],
      },
    },
  });
  expect(answer.status).toBe(200);
}

/** A new member in a new conversation with ELIZA (no model is asked: only the voice is). */
async function openConversation(world: PathWorld) {
  const server = apiOf(world);
  const member = await signUp(server);
  const bots = (await call(server, '/api/v1/bot', { token: member.token })).body as {
    _id: string;
    name: string;
  }[];
  await storeToken(world, member.token);
  await world.page.goto(
    `${world.server.url}/topics/new?bot=${bots.find((bot) => bot.name === 'ELIZA')?._id}`,
  );
  await world.page.getByLabel('Message').waitFor();
  return member;
}

const isActor = (event: ModelEvent, outcome: 'done' | 'error', id: string) =>
  event.type === `xstate.${outcome}.actor.${id}`;

/**
 * The composer's microphone with Chromium's fake device (the microphone granted, or refused by the
 * context's permissions, as the path's next step wants): the time runs beside Stop, the recording goes
 * to the server (held until the path ends it), the transcript fills the box; Cancel and Dismiss. The
 * microphone opens, and the recorder hands its audio over after Stop, on their own: those steps wait
 * for the screen; "opening" and "stopping" last a moment, so their screens accept what follows them.
 */
export function voiceInputBrowserModel({ double }: { double: OpenAiDouble }): BrowserModel {
  return {
    name: 'voiceInput',
    chainWalks: true,
    machine: voiceInputMachine,
    input: { sendAtOnce: false },
    server: { OPENAI_BASE_URL: double.url },
    launch,
    events: [
      { type: 'RECORD' },
      done('openMicrophone'),
      failed('openMicrophone'),
      { type: 'TICK', seconds: 1 },
      { type: 'STOP' },
      { type: 'RECORDED', audio: null },
      { type: 'CANCEL' },
      done('transcribe', 'Hello from the microphone'),
      done('transcribe', ''),
      failed('transcribe'),
      { type: 'DISMISS' },
      { type: 'SET_SEND_AT_ONCE', on: true },
      { type: 'SET_SEND_AT_ONCE', on: false },
    ],
    // The recorder hands its audio over only once stopped (or at ten minutes). Profile → Voice is
    // changed between recordings, to what it is not.
    possible: (snapshot, event) => {
      if (event.type === 'SET_SEND_AT_ONCE')
        return snapshot.matches('idle') && event.on !== snapshot.context.sendAtOnce;
      return event.type !== 'RECORDED' || snapshot.matches({ capturing: 'stopping' });
    },
    requests: { transcribe: { method: 'POST', path: /^\/api\/v1\/audio\/transcriptions$/ } },
    start: async (world) => {
      if (!world.shared.configured) {
        await configure(world, true);
        world.shared.configured = true;
      }
      await openConversation(world);
    },
    perform: async (world, event, index) => {
      const { page } = world;
      const composer = page.locator('form.composer');
      world.data.last = event.type;
      // What the double hears in the next recording: words, or nothing at all.
      const heard = world.events.slice(index + 1).find((next) => isActor(next, 'done', 'transcribe'));
      double.audio.script({ text: heard?.output === '' ? '' : undefined });
      if (event.type === 'SET_SEND_AT_ONCE') {
        const panel = await openProfile(world);
        await panel.getByLabel('Send voice messages at once').setChecked(event.on as boolean);
        await panel.getByRole('button', { name: 'Close side panel' }).click();
      }
      if (event.type === 'RECORD') {
        // The browser grants the microphone, or refuses it when the path's next step says so.
        const refused =
          world.events[index + 1] && isActor(world.events[index + 1], 'error', 'openMicrophone');
        if (refused) await world.context.clearPermissions();
        else await world.context.grantPermissions(['microphone']);
        await composer.getByRole('button', { name: 'Voice input' }).click();
      }
      if (event.type === 'TICK')
        await expect
          .poll(() => composer.getByRole('timer').textContent(), { timeout: 10_000 })
          .toMatch(/0:0[1-9]/);
      if (event.type === 'STOP') await composer.getByRole('button', { name: 'Stop', exact: true }).click();
      if (event.type === 'CANCEL') await composer.getByRole('button', { name: 'Cancel' }).click();
      if (event.type === 'DISMISS') await composer.getByRole('button', { name: 'Dismiss' }).click();
    },
    expectScreen: async (world, snapshot) => {
      const composer = world.page.locator('form.composer');
      const microphone = composer.getByRole('button', { name: 'Voice input' });
      const timer = composer.getByRole('timer');
      const alert = composer.locator('.voice-problem[role="alert"]');
      const transcribing = composer.getByRole('status').filter({ hasText: 'Transcribing…' });
      if (snapshot.matches('idle')) {
        expect(await microphone.isEnabled()).toBe(true);
        expect(await timer.count()).toBe(0);
        expect(await alert.count()).toBe(0);
      }
      if (snapshot.matches('opening')) {
        // A moment: the microphone asked for, then recording (or refused).
        const asking = composer.locator('button:disabled', { hasText: 'Voice input' });
        expect((await asking.count()) + (await timer.count()) + (await alert.count())).toBeGreaterThan(0);
      }
      if (snapshot.matches({ capturing: 'recording' })) {
        expect(await timer.textContent()).toMatch(/Recording\s*\d+:\d\d/);
        expect(await composer.getByRole('button', { name: 'Stop', exact: true }).isVisible()).toBe(true);
      }
      if (snapshot.matches({ capturing: 'stopping' }) || snapshot.matches('transcribing')) {
        expect(await transcribing.count()).toBe(1);
        expect(await composer.getByRole('button', { name: 'Cancel' }).isVisible()).toBe(true);
      }
      if (snapshot.matches('failed')) {
        const text = await alert.textContent();
        const { problem } = snapshot.context;
        expect(text).toMatch(
          problem === 'openMicrophone failed'
            ? /Parley may not use the microphone/
            : problem?.startsWith('Nothing was heard')
              ? /Nothing was heard/
              : networkProblem,
        );
      }
      // The transcript waits in the box, or (Profile → Voice) is sent at once as the member's message.
      if (snapshot.matches('idle') && world.data.last === 'xstate.done.actor.transcribe') {
        const box = await world.page.getByLabel('Message').inputValue();
        const sent = world.page
          .getByRole('log')
          .locator('.message.user', { hasText: 'Hello from the microphone' });
        if (snapshot.context.sendAtOnce) {
          expect(box).toBe('');
          expect(await sent.count()).toBeGreaterThan(0);
        } else expect(box).toContain('Hello from the microphone');
      }
    },
  };
}

/** The reply's actions: its last bot message. */
const lastReply = (page: Page) => page.getByRole('log').locator('.message.bot').last();

/**
 * Read aloud on a reply: with the organization's speech (its request held until the path ends it; the
 * double's audio plays four seconds, then ends) or, in an organization without it, the browser's own
 * speech synthesis, which Chromium without voices refuses at once (so "speaking" lasts a moment and
 * ends in the failure it reports). A path reads one way only: the organization is set for it.
 */
export function readAloudBrowserModel({ double }: { double: OpenAiDouble }): BrowserModel {
  const server = (events: ModelEvent[]) => events.find((event) => event.type === 'READ')?.server !== false;
  return {
    name: 'readAloud',
    chainWalks: true,
    machine: readAloudMachine,
    input: { voice: null },
    server: { OPENAI_BASE_URL: double.url },
    launch,
    events: [
      { type: 'READ', messageId: 'm', text: 'x', server: true },
      { type: 'READ', messageId: 'm', text: 'x', server: false },
      done('fetchSpeech'),
      failed('fetchSpeech'),
      { type: 'STOP' },
      { type: 'ENDED' },
      { type: 'FAILED', message: 'This browser has no voice to read aloud with.' },
      { type: 'DISMISS' },
      { type: 'CHOOSE_VOICE', voice: 'nova' },
    ],
    // Chromium has no voices: the browser's reading fails at once (never stopped, never ended); the
    // server's audio plays to its end or is stopped, it does not fail.
    // The voice is chosen in Profile → Voice between readings, once.
    possible: (snapshot, event) => {
      if (event.type === 'CHOOSE_VOICE') return snapshot.matches('idle') && snapshot.context.voice === null;
      return snapshot.matches('speaking')
        ? event.type === 'FAILED'
        : event.type !== 'FAILED' && !(snapshot.matches('playing') && event.type === 'READ');
    },
    // One way of reading a path (a voice is chosen where the organization speaks); and the page drops a
    // request it stopped, which the browser still holds (the next one would wait behind it): after Stop
    // while fetching, no fetch ends.
    allows: (path) => {
      const reads = path.steps.flatMap((step) => (step.event.type === 'READ' ? [step.event.server] : []));
      if (path.steps.some((step) => step.event.type === 'CHOOSE_VOICE') && reads.includes(false))
        return false;
      const dropped = path.steps.findIndex(
        (step, index) =>
          step.event.type === 'STOP' && index > 0 && path.steps[index - 1].state.matches('fetching'),
      );
      const ended = path.steps.findLastIndex((step) => step.event.type.endsWith('.actor.fetchSpeech'));
      return new Set(reads).size <= 1 && (dropped < 0 || ended < dropped);
    },
    requests: { fetchSpeech: { method: 'POST', path: /^\/api\/v1\/audio\/speech$/ } },
    start: async (world) => {
      double.audio.script({ speechSeconds: 4 });
      await configure(world, server(world.events));
      await openConversation(world);
      const { page } = world;
      await page.getByLabel('Message').fill('Hello');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await lastReply(page).getByRole('button', { name: 'Read aloud' }).waitFor();
    },
    perform: async (world, event) => {
      const { page } = world;
      const reply = lastReply(page);
      if (event.type === 'CHOOSE_VOICE') {
        const panel = await openProfile(world);
        await panel.getByLabel('Voice for reading aloud').selectOption(event.voice as string);
        await panel.getByRole('button', { name: 'Close side panel' }).click();
      }
      if (event.type === 'READ') await reply.getByRole('button', { name: 'Read aloud' }).click();
      if (event.type === 'STOP') await reply.getByRole('button', { name: 'Stop reading' }).click();
      if (event.type === 'DISMISS') await reply.getByRole('button', { name: 'Dismiss' }).click();
      // The audio's own end.
      if (event.type === 'ENDED')
        await reply.getByRole('button', { name: 'Read aloud' }).waitFor({ timeout: 15_000 });
    },
    expectScreen: async ({ page }, snapshot) => {
      const reply = lastReply(page);
      const read = reply.getByRole('button', { name: 'Read aloud' });
      const stop = reply.getByRole('button', { name: 'Stop reading' });
      const alert = reply.locator('.voice-problem[role="alert"]');
      if (snapshot.matches('idle')) {
        expect(await read.count()).toBe(1);
        expect(await alert.count()).toBe(0);
      }
      if (snapshot.matches('fetching')) expect(await stop.getAttribute('aria-busy')).toBe('true');
      if (snapshot.matches('playing')) {
        expect(await stop.getAttribute('aria-busy')).toBe('false');
        // In the member's voice, else the organization's first.
        expect(double.audio.speeches.at(-1)?.voice).toBe(snapshot.context.voice ?? 'alloy');
      }
      // A moment: Chromium's speech synthesis has no voice and says so.
      if (snapshot.matches('speaking')) expect((await stop.count()) + (await alert.count())).toBe(1);
      if (snapshot.matches('failed'))
        expect(await alert.textContent()).toMatch(
          snapshot.context.problem === 'fetchSpeech failed' ? networkProblem : /no voice to read aloud/,
        );
    },
  };
}
