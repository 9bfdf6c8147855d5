import { describe, expect, it } from 'vitest';
import { knownLanguage, knownLanguages } from '../../../machines/language';
import { languages } from '../../../src/i18n/languages';

describe('knownLanguage: a well-formed BCP 47 tag of a language the app has', () => {
  it.each([
    ['de', 'de'],
    ['DE', 'de'],
    ['pt-BR', 'pt'],
    ['zh-Hant-TW', 'zh'],
    ['he-IL', 'he'],
    ['en', 'en'],
  ])('%s → %s', (tag, language) => {
    expect(knownLanguage(tag)).toBe(language);
  });

  it.each([
    ['en_US', 'not well-formed (underscore)'],
    ['e', 'not well-formed (too short)'],
    ['<script>', 'markup'],
    ['de-', 'not well-formed (empty subtag)'],
    ['xx', 'well-formed, no catalog'],
    ['ko', 'well-formed, no catalog'],
    ['', 'empty'],
  ])('%s is refused: %s', (tag) => {
    expect(knownLanguage(tag)).toBeNull();
  });

  it('is what the picker offers', () => {
    expect(languages.map((language) => language.code)).toEqual([...knownLanguages]);
  });
});
