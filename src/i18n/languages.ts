/** The languages the picker offers, by their own names. Any other `?language=` code still works. */
export const languages = [
  { code: 'en', name: 'English' },
  { code: 'ar', name: 'العربية' },
  { code: 'de', name: 'Deutsch' },
  { code: 'es', name: 'Español' },
  { code: 'fr', name: 'Français' },
  { code: 'he', name: 'עברית' },
  { code: 'it', name: 'Italiano' },
  { code: 'ja', name: '日本語' },
  { code: 'nl', name: 'Nederlands' },
  { code: 'pl', name: 'Polski' },
  { code: 'pt', name: 'Português' },
  { code: 'uk', name: 'Українська' },
  { code: 'zh', name: '中文' },
] as const;

const rightToLeft = new Set(['ar', 'he', 'fa', 'ur', 'yi', 'ps', 'sd', 'ug', 'dv', 'ckb']);

/** Writing direction of a language code such as `he` or `ar-EG`. */
export function textDirection(language: string): 'ltr' | 'rtl' {
  return rightToLeft.has(language.split('-')[0].toLowerCase()) ? 'rtl' : 'ltr';
}
