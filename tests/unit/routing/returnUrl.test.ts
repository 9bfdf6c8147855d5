import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { isSameSitePath } from '../../../machines/session';
import { useAddress, useQuery } from '../../../src/routing/address';
import { hostileReturnUrls } from '../../support/returnUrls';

describe('return targets (returnUrl)', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('are paths of this site only: nothing another origin, nothing a URL parser reads otherwise', () => {
    for (const url of hostileReturnUrls) expect([url, isSameSitePath(url)]).toEqual([url, false]);
    expect(isSameSitePath(null)).toBe(false);
    for (const url of ['/list', '/list?from=mail', '/topics/new?bot=eliza', '/admin/bots/b%2F1', '/s/x#top'])
      expect([url, isSameSitePath(url)]).toEqual([url, true]);
  });

  it('are read from the address decoded once, so what the server kept is what the app follows', () => {
    window.history.replaceState(null, '', '/login?sso=c&returnUrl=%2F%2509%2Fevil.example');
    const hostile = renderHook(() => useQuery().get('returnUrl')).result.current;
    expect(hostile).toBe('/%09/evil.example');
    expect(isSameSitePath(hostile)).toBe(false);
    // A percent sign in a target survives: decoded twice, `%25` would be taken for an escape.
    window.history.replaceState(null, '', '/login?returnUrl=%2Flist%3Fq%3D50%2525');
    expect(renderHook(() => useQuery().get('returnUrl')).result.current).toBe('/list?q=50%25');
  });

  it('keep the address a login check was asked at as the address bar has it', () => {
    window.history.replaceState(null, '', '/topics/a%2Fb?q=50%25&from=mail');
    expect(renderHook(() => useAddress()).result.current).toBe('/topics/a%2Fb?q=50%25&from=mail');
  });
});
