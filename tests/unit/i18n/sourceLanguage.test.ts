import { describe, expect, it } from 'vitest';
import { isSourceLanguage } from '../../../machines/translation';

// The one rule the translation machine, useDisplaysEnglish and t share: English is shown as written.
describe('isSourceLanguage: English, regional English included, is never translated', () => {
  it.each(['en', 'EN', 'en-US', 'en-GB', 'en-Latn-IE'])('%s is English', (language) => {
    expect(isSourceLanguage(language)).toBe(true);
  });

  it.each(['de', 'pt-BR', 'eng', 'ena', ''])('%s is not', (language) => {
    expect(isSourceLanguage(language)).toBe(false);
  });
});
