import { ApiError } from '../errors';
import { checkProviderUrl, RefusedAddress } from '../security/outbound';
import { type StoredSearch, searchKeyHint } from './store';

/** The `search` of a settings change: null turns web search off. */
export type SearchChange = { engine: 'searxng' | 'brave'; url?: string | null; key?: string | null } | null;

const invalid = (message: string, code = 'INVALID_INPUT') => new ApiError(400, message, code, 'search');

/**
 * The search engine to store, checked: a SearXNG address passes the providers' SSRF rules (private
 * networks refused unless ALLOW_PRIVATE_PROVIDER_URLS=true); a Brave key is sealed, and kept as it
 * was when the change leaves it out while Brave stays the engine.
 */
export async function checkSearch(
  change: SearchChange,
  before: StoredSearch | null,
  rules: { allowPrivate: boolean; seal: (key: string) => string },
): Promise<StoredSearch | null> {
  if (change === null) return null;
  if (change.engine === 'searxng') {
    const given = change.url?.trim() ?? '';
    if (!given)
      throw invalid('Enter the address of the SearXNG instance, such as https://searx.example.org.');
    let url: URL;
    try {
      url = await checkProviderUrl(given, rules.allowPrivate);
    } catch (error) {
      if (error instanceof RefusedAddress)
        throw invalid(
          `The address ${error.host} is on this machine or a private network, which an organization's search engine may not use ` +
            '(the operator can allow private addresses with ALLOW_PRIVATE_PROVIDER_URLS=true).',
          'URL_NOT_ALLOWED',
        );
      throw invalid((error as Error).message.replace('The base URL', 'The SearXNG address'), 'INVALID_URL');
    }
    if (url.search || url.hash)
      throw invalid('The SearXNG address is the instance’s own, without a query.', 'INVALID_URL');
    return { engine: 'searxng', url: url.href.replace(/\/+$/, '') };
  }
  const key = change.key?.trim() ?? '';
  if (!key) {
    if (before?.engine === 'brave') return before;
    throw invalid('Enter the Brave Search API key.');
  }
  if (!/^[\x21-\x7e]+$/.test(key)) throw invalid('The Brave Search API key has characters no key has.');
  return { engine: 'brave', key: rules.seal(key), keyHint: searchKeyHint(key) };
}
