import { startPostgres } from '../../tests/support/postgres';
import { printApiFigures } from './api';
import { printBundleFigures } from './bundle';
import { printRenderFigures } from './render';
import { printTtftFigures } from './ttft';

// Each section prints figures; budgets live in the issues and are compared by a person, not asserted.
printBundleFigures();
console.log();
await printRenderFigures();
console.log();
await printTtftFigures({ name: 'PGlite (embedded, one connection)' });
console.log();
const postgres = await startPostgres();
try {
  await printTtftFigures({ name: 'PostgreSQL (pool of 10)', url: postgres.url });
} finally {
  postgres.stop();
}
console.log();
await printApiFigures();
process.exit(0);
