import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium, the browser people run (Lighthouse measures it). */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/**
 * Debian's build of Chromium's headless shell (package chromium-headless-shell), the same engine
 * without the desktop browser around it, as Playwright runs headless tests by default: the suite's
 * thousands of pages cost about a tenth less CPU in it.
 */
export const headlessShellPath = process.env.HEADLESS_SHELL_PATH ?? '/usr/bin/chromium-headless-shell';
/** What this closed network needs: no sandbox as root, no GPU, no calls home. */
export const chromiumFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Debian's headless Chromium, with the flags this closed network needs. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: headlessShellPath,
    args: chromiumFlags,
  });
}

/**
 * Debian's Chromium (the headless shell has no media capture: getUserMedia answers NotSupportedError)
 * with a microphone that plays `wav`, a file the test writes, in a loop, granted or refused by the
 * context's permissions; audio may play without a gesture of the page's own.
 */
export function launchWithMicrophone(wav: string): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      ...chromiumFlags,
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${wav}`,
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
}
