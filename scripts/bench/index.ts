import { startPostgres } from '../../tests/support/postgres';
import { printApiFigures } from './api';
import { printBundleFigures } from './bundle';
import { printFileFigures } from './files';
import { printKnowledgeFigures } from './knowledge';
import { printLighthouseFigures } from './lighthouse';
import { printLongTopicFigures } from './longTopic';
import { printProjectFigures } from './projects';
import { printRenderFigures } from './render';
import { printSearchFigures } from './search';
import { printServerCostFigures } from './serverCost';
import { printTtftFigures } from './ttft';

async function postgresFigures() {
  const postgres = await startPostgres();
  try {
    await printTtftFigures({ name: 'PostgreSQL (pool of 20)', url: postgres.url });
    console.log();
    await printSearchFigures({ name: 'PostgreSQL', url: postgres.url });
  } finally {
    postgres.stop();
  }
}

// Each section prints figures; budgets live in the issues and are compared by a person, not asserted.
const sections: [string, () => unknown][] = [
  ['bundle', printBundleFigures],
  ['render', printRenderFigures],
  ['long-topic', printLongTopicFigures],
  ['server', printServerCostFigures],
  ['ttft', () => printTtftFigures({ name: 'PGlite (embedded, in a worker thread)' })],
  ['search', () => printSearchFigures({ name: 'PGlite' })],
  ['knowledge', printKnowledgeFigures],
  ['projects', printProjectFigures],
  ['files', printFileFigures],
  ['postgres', postgresFigures],
  ['api', printApiFigures],
  ['lighthouse', printLighthouseFigures],
];

// `npm run bench` runs them all; names after it run only those (`npm run bench -- long-topic`).
const picked = process.argv.slice(2);
const unknown = picked.filter((name) => !sections.some(([known]) => known === name));
if (unknown.length) {
  console.error(
    `unknown section ${unknown.join(', ')}; sections: ${sections.map(([name]) => name).join(', ')}`,
  );
  process.exit(1);
}
const chosen = sections.filter(([name]) => picked.length === 0 || picked.includes(name));
for (const [index, [, print]] of chosen.entries()) {
  if (index > 0) console.log();
  await print();
}
process.exit(0);
