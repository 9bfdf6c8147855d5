import { join } from 'node:path';

// This file sits at the top of the server folder, in the sources and in the bundle alike
// (build/server/main.js): files the server reads at run time are found from here.
const root = import.meta.dirname;

export const migrationsFolder = join(root, 'db', 'migrations');
export const catalogsFolder = join(root, 'i18n', 'catalogs');

// The sources run as TypeScript (through tsx), the build as JavaScript: the worker is either.
const compiled = import.meta.url.endsWith('.js');
export const pgliteWorkerFile = join(root, 'db', `pgliteWorker.${compiled ? 'js' : 'ts'}`);
