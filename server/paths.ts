import { join } from 'node:path';

// This file sits at the top of the server folder, in the sources and in the bundle alike
// (build/server/main.js): files the server reads at run time are found from here.
const root = import.meta.dirname;

export const migrationsFolder = join(root, 'db', 'migrations');
export const catalogsFolder = join(root, 'i18n', 'catalogs');
