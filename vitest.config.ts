import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Most of a test's time is spent waiting on a server, a browser or a database: three files side by
    // side keep two cores busy (vitest's default on two cores is a single file at a time).
    maxWorkers: 3,
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
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
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
