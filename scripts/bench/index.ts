import { startPostgres } from '../../tests/support/postgres';
import { printApiFigures } from './api';
import { printBundleFigures } from './bundle';
import { printRenderFigures } from './render';
import { printSearchFigures } from './search';
import { printTtftFigures } from './ttft';

// Each section prints figures; budgets live in the issues and are compared by a person, not asserted.
printBundleFigures();
console.log();
await printRenderFigures();
console.log();
await printTtftFigures({ name: 'PGlite (embedded, one connection)' });
console.log();
await printSearchFigures({ name: 'PGlite' });
console.log();
const postgres = await startPostgres();
try {
  await printTtftFigures({ name: 'PostgreSQL (pool of 10)', url: postgres.url });
  console.log();
  await printSearchFigures({ name: 'PostgreSQL', url: postgres.url });
} finally {
  postgres.stop();
}
console.log();
await printApiFigures();
console.log();
console.log('## Lighthouse');
console.log(
  'not run: Lighthouse is not a dependency of Parley (it would add ~30 MB for one figure). The browser tests check what it would: labels, names, roles, CSP, offline shell.',
);
process.exit(0);
