import { type ChildProcess, type ForkOptions, fork } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

// This file sits at the top of the server folder, in the sources and in the bundle alike
// (build/server/main.js): files the server reads at run time are found from here.
const root = import.meta.dirname;

export const migrationsFolder = join(root, 'db', 'migrations');
export const catalogsFolder = join(root, 'i18n', 'catalogs');
export const guideFolder = join(root, 'seed', 'guide');

// The sources run as TypeScript (through tsx), the build as JavaScript: a worker is either.
const compiled = import.meta.url.endsWith('.js');
const workerFile = (...path: string[]) => `${join(root, ...path)}.${compiled ? 'js' : 'ts'}`;
export const pgliteWorkerFile = workerFile('db', 'pgliteWorker');
export const extractWorkerFile = workerFile('files', 'extractWorker');

/** Starts a worker thread on one of the files above: the sources need tsx in the worker too. */
export function startWorker(file: string, options: WorkerOptions): Worker {
  if (!file.endsWith('.ts')) return new Worker(file, options);
  const url = JSON.stringify(pathToFileURL(file).href);
  return new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${url}); })`, {
    ...options,
    eval: true,
  });
}

/** Starts a Node process on one of the files above (through tsx for the sources), with an IPC channel. */
export function startProcess(file: string, options: ForkOptions & { execArgv: string[] }): ChildProcess {
  return fork(file, {
    ...options,
    execArgv: [...(file.endsWith('.ts') ? ['--import', 'tsx'] : []), ...options.execArgv],
  });
}
