import { existsSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** A browser model's size: its walks take minutes, more the larger the model (its test file is a stub). */
const modelSize = (spec: TestSpecification) => {
  const model = `tests/model/browser/models/${basename(spec.moduleId, '.test.ts')}.ts`;
  return existsSync(model) ? statSync(model).size : 0;
};

/**
 * Vitest's order (projects by name, so the browser walks start first), with the largest browser models
 * first among them: on a clean clone no timings are cached, and a long walk started last would run alone.
 */
class LargestModelsFirst extends BaseSequencer {
  async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);
    const walks = sorted.filter((spec) => spec.project.name === 'browser-model');
    walks.sort((a, b) => modelSize(b) - modelSize(a));
    return [...walks, ...sorted.filter((spec) => spec.project.name !== 'browser-model')];
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: LargestModelsFirst },
    // Most of a test's time is spent waiting on a server, a browser or a database: three files side by
    // side keep two cores busy (vitest's default on two cores is a single file at a time).
    maxWorkers: 3,
    // The server, browser and e2e files share no state but what they start (servers, databases,
    // browsers), so each worker imports the server's code and the test support once, not per file
    // (`isolate: false` there): importing them took 160 of the suite's CPU seconds.
    projects: [
      {
        plugins: [react()],
        test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'], environment: 'jsdom' },
      },
      {
        plugins: [react()],
        test: {
          name: 'model',
          include: ['tests/model/**/*.test.{ts,tsx}'],
          exclude: ['tests/model/browser/**'],
          environment: 'node',
          // The topic's ~10,000 paths take a minute of one core alone, several beside the browser tests.
          testTimeout: 400_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          isolate: false,
          // The servers these files start in their worker live seconds: optimizing PostgreSQL's
          // WebAssembly would cost more than it saves (see tests/support/server.ts).
          execArgv: ['--liftoff-only'],
          environment: 'node',
          // A restart or a corpus over every route takes ~10 s alone, several times that beside browsers.
          testTimeout: 90_000,
          // Each file starts real servers and databases: slow on a loaded machine, never a hang.
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'cluster',
          include: ['tests/cluster/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          // The machines' generated paths, walked in Chromium against the built app and the real server.
          name: 'browser-model',
          include: ['tests/model/browser/**/*.test.ts'],
          isolate: false,
          environment: 'node',
          // A walk chains up to 16 steps, each checked on screen (and with axe the first time).
          testTimeout: 180_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          isolate: false,
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // What a screen shows after a click comes in well under a second alone, in seconds on a busy
          // machine: the default second would fail a right screen for being slow.
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
