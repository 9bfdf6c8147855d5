import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { JSDOM } from 'jsdom';
import { build } from 'vite';
import { launchBrowser } from '../../tests/support/browser';
import { ms } from './stats';

type Figures = { paragraphs: number; markdown: number; wholeReply: number }[];

const print = (where: string, figures: Figures) => {
  console.log(`## Streaming render cost per token in ${where} (React 19, mean of 150 tokens)`);
  console.log('paragraphs | Parley Markdown | whole reply re-rendered');
  for (const row of figures) {
    console.log(
      `${String(row.paragraphs).padStart(10)} | ${ms(row.markdown).padStart(15)} | ${ms(row.wholeReply).padStart(10)}`,
    );
  }
};

/** In Chromium: the measurement bundled by Vite and run on a blank page. */
async function inChromium(): Promise<Figures> {
  const outDir = mkdtempSync(join(tmpdir(), 'parley-render-bench-'));
  await build({
    configFile: false,
    logLevel: 'silent',
    plugins: [react()],
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      outDir,
      lib: {
        entry: 'scripts/bench/renderPage.ts',
        formats: ['iife'],
        name: 'renderBench',
        fileName: () => 'bench.js',
      },
    },
  });
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.setContent('<!doctype html><html><body></body></html>');
    await page.addScriptTag({ path: join(outDir, 'bench.js') });
    return await page.evaluate(() =>
      (window as unknown as { measureRenderCost: () => Figures }).measureRenderCost(),
    );
  } finally {
    await browser.close();
  }
}

/** In jsdom, as the unit tests render. */
async function inJsdom(): Promise<Figures> {
  const dom = new JSDOM('<!doctype html><html><body></body></html>', { pretendToBeVisual: true });
  Object.assign(globalThis, {
    window: dom.window,
    document: dom.window.document,
    navigator: dom.window.navigator,
  });
  for (const name of [
    'HTMLElement',
    'Node',
    'Element',
    'DocumentFragment',
    'DOMParser',
    'NodeFilter',
    'HTMLTemplateElement',
  ]) {
    Object.assign(globalThis, { [name]: (dom.window as unknown as Record<string, unknown>)[name] });
  }
  // DOMPurify and React find the DOM on import, so they come after it.
  const { measureRenderCost } = await import('./renderCost');
  return measureRenderCost();
}

/** Per-token render cost of a streamed reply: Parley's block-memoized Markdown against re-rendering it all. */
export async function printRenderFigures(): Promise<void> {
  print('Chromium', await inChromium());
  console.log();
  print('jsdom', await inJsdom());
}
