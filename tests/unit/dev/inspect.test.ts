import 'fake-indexeddb/auto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInspector, type StatelyInspectionEvent } from '@statelyai/inspect';
import { describe, expect, it } from 'vitest';
import { type AnyActorLogic, createActor, fromPromise, type InspectionEvent, type Observer } from 'xstate';
import { type SessionUser, sessionMachine } from '../../../machines/session';
import { machines } from '../../../scripts/diagrams/machines';
import { createAdminActors } from '../../../src/app/createAdminActors';
import { createAppActors } from '../../../src/app/createAppActors';
import { sessionActions } from '../../../src/app/machineActions';
import { createStoredValues } from '../../../src/app/storedValues';
import { inspectorOptions } from '../../../src/dev/inspect';
import { redacted } from '../../../src/dev/redact';
import { createTranslationCache } from '../../../src/i18n/translationCache';

const password = 'correct-horse-battery-staple';
const otp = '493817';
const token = 'eyJhbGciOiJIUzI1NiJ9.secret-token';
const renewed = 'eyJhbGciOiJIUzI1NiJ9.renewed-token';

/** The inspector's own pipeline, its window replaced by a list of what it would post. */
function recordingInspector(options?: typeof inspectorOptions) {
  const sent: StatelyInspectionEvent[] = [];
  const inspector = createInspector({ send: (event) => sent.push(event) }, options);
  return { sent, inspect: inspector.inspect };
}

/** The session machine, logging in and signing up with a password, a one-time code and tokens. */
async function runSession(inspect: Observer<InspectionEvent>) {
  const session = createActor(
    sessionMachine.provide({
      actors: {
        login: fromPromise(async () => token),
        signup: fromPromise(async () => token),
        loadUser: fromPromise(
          async (): Promise<SessionUser> => ({ _id: 'u1', username: 'ada', displayName: 'Ada' }),
        ),
      },
      // The app's own effects: the token and the user kept in the browser's storage.
      actions: sessionActions(createStoredValues(window.localStorage), () => {}),
    }),
    { input: { token: null, user: null }, inspect },
  );
  session.start();
  session.send({
    type: 'SIGNUP',
    username: 'ada',
    displayName: 'Ada',
    email: 'ada@example.com',
    password,
    otp,
  });
  session.send({ type: 'LOGIN', email: 'ada@example.com', password });
  await new Promise((resolve) => setTimeout(resolve, 50));
  session.send({ type: 'TOKEN_RENEWED', token: renewed });
  // The inspector converts events when the page is idle.
  await new Promise((resolve) => setTimeout(resolve, 300));
  session.stop();
}

describe('the Stately inspector in development', () => {
  it('sends no password, one-time code or token: they are redacted before they leave the page', async () => {
    const plain = recordingInspector();
    await runSession(plain.inspect);
    const unredacted = JSON.stringify(plain.sent);
    // The events carry the secrets: without the options they would reach the inspector's window.
    for (const secret of [password, otp, token, renewed]) expect(unredacted).toContain(secret);

    const safe = recordingInspector(inspectorOptions);
    await runSession(safe.inspect);
    const sent = JSON.stringify(safe.sent);
    for (const secret of [password, otp, token, renewed]) expect(sent).not.toContain(secret);
    expect(sent).toContain(redacted);
    // What is not a secret still shows: the events, who logs in, the states.
    expect(sent).toContain('"LOGIN"');
    expect(sent).toContain('ada@example.com');
    expect(sent).toContain('loggedIn');
  });

  it('sees every machine the app creates, from the first page to the admin area', async () => {
    const names = new Set<string>();
    const inspect: Observer<InspectionEvent> = {
      next: (event) => {
        const { logic } = event.actorRef as { logic?: AnyActorLogic & { id?: string } };
        if (event.type === '@xstate.actor' && logic?.id) names.add(logic.id);
      },
    };
    const actors = createAppActors({
      // Nothing answers: requests fail, and the app only logs that.
      apiUrl: 'http://127.0.0.1:9',
      host: 'localhost:5173',
      search: '',
      production: false,
      defaultOrganization: 'app',
      storage: window.localStorage,
      translationCache: createTranslationCache(),
      navigate: () => {},
      reload: () => {},
      dropLanguageParameter: () => {},
      saveFile: () => {},
      applyTheme: () => {},
      registerWorker: async () => {},
      log: () => {},
      inspect,
    });
    const workspace = await actors.workspace();
    const admin = await createAdminActors({ ...actors.services, session: actors.session });
    // The screens' own actors (a chat, its attachments, files and cited passages, a bot editor, a knowledge base, a
    // provider's models, a shared link's page, the Profile panel's API keys, personalization, memories, import, a
    // reply's saved memory and thumbs, a chat's model choice, the command palette, the prompt library, the `/` menu, the
    // microphone and Read aloud) take the observer they hand out.
    expect(workspace.inspect).toBe(inspect);
    expect(admin.inspect).toBe(inspect);
    const screens = new Set([
      'topic',
      'attachments',
      'attachment',
      'citations',
      'botEditor',
      'knowledgeBase',
      'sharedConversation',
      'apiKeys',
      'personalization',
      'memories',
      'importer',
      'savedMemory',
      'feedback',
      'chatModel',
      'commandPalette',
      'prompts',
      'slashMenu',
      'voiceInput',
      'readAloud',
    ]);
    const expected = machines.map(({ machine }) => machine.id).filter((id) => !screens.has(id));
    expect(expected.filter((id) => !names.has(id))).toEqual([]);
  });

  it('is handed to every actor the source creates, screens included', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) ? [path] : [];
      });
    const uninspected = files('src').flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\b(createActor|useActorRef|useMachine|interpret)\(/g)]
        .map((match) => {
          const text = readFileSync(file, 'utf8');
          // The call's arguments, to its closing parenthesis.
          let depth = 0;
          let end = match.index + match[0].length - 1;
          for (; end < text.length; end++) {
            if (text[end] === '(') depth++;
            if (text[end] === ')' && --depth === 0) break;
          }
          return { file, call: text.slice(match.index, end + 1) };
        })
        .filter(({ call }) => !/\binspect\b/.test(call))
        .map(({ file, call }) => `${file}: ${call.split('\n')[0]}`),
    );
    expect(uninspected).toEqual([]);
  });
});
