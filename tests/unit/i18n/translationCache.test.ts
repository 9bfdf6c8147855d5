import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { createTranslationCache } from '../../../src/i18n/translationCache';

describe('translation cache (IndexedDB TranslationCache)', () => {
  it('keeps translations per language under the spec names and reads one language at once', async () => {
    const cache = createTranslationCache();
    await cache.write([
      { text: 'Log in', language: 'de', translation: 'Anmelden' },
      { text: 'Register', language: 'de', translation: 'Registrieren' },
      { text: 'Log in', language: 'fr', translation: 'Se connecter' },
    ]);

    expect(await cache.readLanguage('de')).toEqual(
      new Map([
        ['Log in', 'Anmelden'],
        ['Register', 'Registrieren'],
      ]),
    );
    expect(await cache.readLanguage('fr')).toEqual(new Map([['Log in', 'Se connecter']]));
    expect(await cache.readLanguage('it')).toEqual(new Map());

    const db = await openDB('TranslationCache');
    expect(db.version).toBe(1);
    expect(db.objectStoreNames.contains('translations')).toBe(true);
    expect(await db.get('translations', ['Log in', 'de'])).toEqual({
      text: 'Log in',
      language: 'de',
      translation: 'Anmelden',
    });
    db.close();
  });

  it('overwrites a translation of the same text and language instead of duplicating it', async () => {
    const cache = createTranslationCache();
    await cache.write([{ text: 'Send', language: 'es', translation: 'Mandar' }]);
    await cache.write([{ text: 'Send', language: 'es', translation: 'Enviar' }]);
    expect(await createTranslationCache().readLanguage('es')).toEqual(new Map([['Send', 'Enviar']]));
  });
});
