import { mkdirSync, writeFileSync } from 'node:fs';
import { renderMachinesDoc } from './diagrams/render';

mkdirSync('docs', { recursive: true });
writeFileSync('docs/machines.md', renderMachinesDoc());
console.log('wrote docs/machines.md');
