import { runOperator } from '../server/operator/cli';

/**
 * `npm run parley -- org …`: the platform operator's command (server/operator/cli.ts). It runs with
 * `--liftoff-only`: a command that opens the database for one statement or two does not earn back
 * optimizing PostgreSQL's WebAssembly (a quarter of its CPU).
 */
process.exitCode = await runOperator(process.argv.slice(2));
