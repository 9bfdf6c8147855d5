import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from './server';

/** The test identity provider (tests/support/idp.mjs, panva's oidc-provider) in its own process. */
export interface Idp {
  url: string;
  process: ChildProcess;
  output: () => string;
  /** Sets the claims the IdP gives the account `login` (its login form admits any login). */
  account: (login: string, claims: Record<string, unknown>) => Promise<void>;
  stop: () => void;
}

/** Starts tests/support/idp.mjs with the clients given (oidc-provider client metadata). */
export async function startIdp(clients: Record<string, unknown>[]): Promise<Idp> {
  const port = await freePort();
  let log = '';
  const child = spawn(process.execPath, ['tests/support/idp.mjs'], {
    env: { ...process.env, IDP_PORT: String(port), IDP_CLIENTS: JSON.stringify(clients) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`IdP did not start:\n${log}`)), 30_000);
    child.stdout?.on('data', (chunk) => {
      log += chunk;
      if (log.includes('listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr?.on('data', (chunk) => {
      log += chunk;
    });
    child.once('exit', () => reject(new Error(`IdP exited:\n${log}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    process: child,
    output: () => log,
    account: async (login, claims) => {
      const answer = await fetch(`${url}/_test/accounts/${encodeURIComponent(login)}`, {
        method: 'PUT',
        body: JSON.stringify(claims),
      });
      if (answer.status !== 204) throw new Error(`IdP account ${login}: ${answer.status}`);
    },
    stop: () => {
      child.kill();
    },
  };
}

/** A browser's cookie jar over fetch, redirects followed by hand; cookies by host name, as browsers keep them. */
export class FetchBrowser {
  readonly jar = new Map<string, Map<string, string>>();

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const { hostname } = new URL(url);
    const headers = new Headers(init.headers);
    const cookies = this.jar.get(hostname);
    if (cookies?.size)
      headers.set('cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const gone = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute)) || value === '';
      const kept = this.jar.get(hostname) ?? new Map<string, string>();
      if (gone) kept.delete(name);
      else kept.set(name, value);
      this.jar.set(hostname, kept);
    }
    return response;
  }

  cookie(hostname: string, name: string) {
    return this.jar.get(hostname)?.get(name);
  }
}

/**
 * Follows redirects from `url` through the IdP, filling its login form with `login`, until a redirect
 * to a URL starting with `stop`: answers that URL (not opened).
 */
export async function throughIdp(browser: FetchBrowser, url: string, login: string, stop: string) {
  let location = url;
  for (let step = 0; step < 12; step += 1) {
    if (location.startsWith(stop)) return location;
    const response = await browser.fetch(location);
    if (response.status >= 300 && response.status < 400) {
      location = new URL(response.headers.get('location') ?? '', location).href;
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (response.status !== 200 || !action)
      throw new Error(`unexpected IdP page ${response.status}: ${html}`);
    const submitted = await browser.fetch(new URL(action.replaceAll('&amp;', '&'), location).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ prompt: 'login', login, password: 'any password' }).toString(),
    });
    if (submitted.status < 300) throw new Error(`the IdP refused the login form: ${submitted.status}`);
    location = new URL(submitted.headers.get('location') ?? '', location).href;
  }
  throw new Error('too many redirects');
}

/**
 * A real single-use sign-in code of Parley at `serverUrl` for the IdP account `login`: the sign-in
 * started, the IdP's login form filled in, the callback followed; answers the code it hands the app and
 * the cookie binding it to the browser it was handed to (without it, the exchange is refused).
 */
export async function ssoCode(
  serverUrl: string,
  login: string,
  organization = 'app',
): Promise<{ code: string; cookie: { name: string; value: string } }> {
  const browser = new FetchBrowser();
  const started = await browser.fetch(
    `${serverUrl}/auth/oidc/start?organization=${organization}&returnUrl=%2Flist`,
  );
  const location = new URL(started.headers.get('location') ?? '', serverUrl).href;
  if (started.status !== 302 || location.startsWith(`${serverUrl}/login`))
    throw new Error(`SSO start failed: ${started.status} ${location}`);
  const back = await throughIdp(browser, location, login, `${serverUrl}/auth/oidc/callback`);
  const answer = await browser.fetch(back);
  const landing = new URL(answer.headers.get('location') ?? '', serverUrl);
  const code = landing.searchParams.get('sso');
  const name = 'parley_oidc_code';
  const value = browser.cookie(new URL(serverUrl).hostname, name);
  if (!code || !value) throw new Error(`SSO callback gave no code or no cookie: ${landing.href}`);
  return { code, cookie: { name, value } };
}
