import { runOperator } from '../server/operator/cli';

/** `npm run parley -- org …`: the platform operator's command (server/operator/cli.ts). */
process.exitCode = await runOperator(process.argv.slice(2));
