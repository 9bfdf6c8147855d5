import type { AnyMachineSnapshot } from 'xstate';
import { translationMachine } from '../../../machines/translation';
import type { MachineModel } from '../harness';
import { expect } from '../harness';
import { done, failed, pending, silent } from './shared';

const afterWriteBatch = 'xstate.after.writeBatch.translation.ready.gathering';

export const translationModel: MachineModel = {
  name: 'translation',
  provide: () =>
    translationMachine.provide({
      actors: { readCache: pending(), writeCache: pending(), translateText: silent() },
      actions: { logError: () => {} },
    }),
  inputs: [{ language: 'en' }, { language: 'de' }],
  // Answers come only for texts that were asked for.
  events: (snapshot: AnyMachineSnapshot) => [
    { type: 'TRANSLATE', text: 'Log in' },
    { type: 'TRANSLATE', text: 'Register' },
    ...(snapshot.context.pending.includes('Log in')
      ? [
          { type: 'TRANSLATED', text: 'Log in', translation: 'Anmelden' },
          { type: 'NOT_TRANSLATED', text: 'Log in' },
        ]
      : []),
    ...(snapshot.context.pending.includes('Register')
      ? [{ type: 'TRANSLATED', text: 'Register', translation: 'Registrieren' }]
      : []),
    done('readCache', { Register: 'Registrieren' }),
    failed('readCache'),
    { type: afterWriteBatch },
    done('writeCache'),
    failed('writeCache'),
  ],
  serialize: (snapshot) => {
    const { translations, pending: asked, untranslatable, unwritten, writing } = snapshot.context;
    return JSON.stringify([
      snapshot.value,
      Object.keys(translations),
      asked,
      untranslatable,
      unwritten.length,
      writing.length,
    ]);
  },
  check: (snapshot) => {
    const { language, translations, pending: asked, untranslatable, unwritten, writing } = snapshot.context;
    if (language === 'en') expect(snapshot.value).toBe('bypassed');
    // One request per text: a text is pending at most once, and never once it is known.
    expect(new Set(asked).size).toBe(asked.length);
    for (const text of asked) expect(text in translations).toBe(false);
    // Untranslated texts are shown as they are and never written to the cache.
    for (const record of [...unwritten, ...writing]) {
      expect(record.language).toBe(language);
      expect(untranslatable).not.toContain(record.text);
      expect(translations[record.text]).toBe(record.translation);
    }
  },
};
