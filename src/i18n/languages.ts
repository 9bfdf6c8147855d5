import { type KnownLanguage, knownLanguages } from '../../machines/language';

/** Each known language by its own name: the compiler sees to it that none is missing. */
const names: Record<KnownLanguage, string> = {
  en: 'English',
  ar: 'العربية',
  de: 'Deutsch',
  es: 'Español',
  fr: 'Français',
  he: 'עברית',
  it: 'Italiano',
  ja: '日本語',
  nl: 'Nederlands',
  pl: 'Polski',
  pt: 'Português',
  uk: 'Українська',
  zh: '中文',
};

/** The languages the picker offers: the only ones the language machine stores (`?language=` included). */
export const languages = knownLanguages.map((code) => ({ code, name: names[code] }));

const rightToLeft = new Set(['ar', 'he', 'fa', 'ur', 'yi', 'ps', 'sd', 'ug', 'dv', 'ckb']);

/** Writing direction of a language code such as `he` or `ar-EG`. */
export function textDirection(language: string): 'ltr' | 'rtl' {
  return rightToLeft.has(language.split('-')[0].toLowerCase()) ? 'rtl' : 'ltr';
}
