import { startPostgres } from '../../tests/support/postgres';
import { printApiFigures } from './api';
import { printBundleFigures } from './bundle';
import { printLighthouseFigures } from './lighthouse';
import { printRenderFigures } from './render';
import { printSearchFigures } from './search';
import { printTtftFigures } from './ttft';

// Each section prints figures; budgets live in the issues and are compared by a person, not asserted.
printBundleFigures();
console.log();
await printRenderFigures();
console.log();
await printTtftFigures({ name: 'PGlite (embedded, in a worker thread)' });
console.log();
await printSearchFigures({ name: 'PGlite' });
console.log();
const postgres = await startPostgres();
try {
  await printTtftFigures({ name: 'PostgreSQL (pool of 20)', url: postgres.url });
  console.log();
  await printSearchFigures({ name: 'PostgreSQL', url: postgres.url });
} finally {
  postgres.stop();
}
console.log();
await printApiFigures();
console.log();
await printLighthouseFigures();
process.exit(0);
