import { knownLanguages, languageMachine } from '../../../machines/language';
import { languageActions } from '../../../src/app/machineActions';
import { createStoredValues } from '../../../src/app/storedValues';
import type { MachineModel } from '../harness';
import { expect } from '../harness';

export const languageModel: MachineModel = {
  name: 'language',
  provide: (world) =>
    languageMachine.provide({
      actions: languageActions(
        createStoredValues(world.storage),
        () => world.calls.push('reload'),
        () => world.calls.push('dropLanguageParameter'),
      ),
    }),
  inputs: [
    { storedLanguage: null, search: '' },
    { storedLanguage: 'de', search: '?bot=1' },
    { storedLanguage: 'de', search: '?language=he' },
    { storedLanguage: null, search: '?language=PT-br' },
    // Not well-formed, not known, or markup: dropped, and the current language stays.
    { storedLanguage: 'de', search: '?language=en_US' },
    { storedLanguage: null, search: '?language=xx' },
    { storedLanguage: 'fr', search: '?language=%3Cscript%3E' },
    // Stored by an older version that took any value: the default stands in for it.
    { storedLanguage: 'klingon', search: '' },
  ],
  events: [
    { type: 'CHANGE', language: 'fr' },
    { type: 'CHANGE', language: 'en' },
    { type: 'CHANGE', language: 'xx' },
  ],
  check: (snapshot, world) => {
    const { language, search } = snapshot.context;
    expect(knownLanguages).toContain(language);
    const asked = new URLSearchParams(search).get('language');
    // An unusable ?language= only leaves the address: nothing stored, no reload.
    const dropped = asked !== null && asked !== 'he' && asked !== 'PT-br';
    expect(world.calls.filter((call) => call === 'dropLanguageParameter')).toHaveLength(dropped ? 1 : 0);
    if (snapshot.matches('reloading')) {
      expect(world.storage.getItem('language')).toBe(language);
      expect(world.calls.filter((call) => call === 'reload')).toHaveLength(1);
      if (asked === 'PT-br') expect(language).toBe('pt');
    } else {
      expect(world.storage.getItem('language')).toBeNull();
      expect(world.calls).not.toContain('reload');
      expect(language).toMatch(/^(en|de|fr)$/);
    }
  },
};
