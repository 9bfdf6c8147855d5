import { describe, expect, it } from 'vitest';
import { uiStrings } from '../../scripts/uiStrings';
import { loadCatalogs } from '../../server/translation/catalogs';

describe('built-in translation catalogs', () => {
  const catalogs = loadCatalogs();
  const strings = uiStrings();

  it('cover at least 12 languages, right-to-left ones included', () => {
    expect(catalogs.size).toBeGreaterThanOrEqual(12);
    expect([...catalogs.keys()]).toEqual(expect.arrayContaining(['ar', 'he', 'de', 'fr', 'ja', 'zh']));
  });

  it.each([...catalogs.keys()])('%s translates every string the web app shows', (language) => {
    const catalog = catalogs.get(language) ?? {};
    const missing = strings.filter((text) => !catalog[text]?.trim());
    expect(missing).toEqual([]);
  });
});
