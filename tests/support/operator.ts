import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * The operator's command line as package.json's `parley` script has it (its node options included),
 * for node to run without npm in between: `[...operatorCommand, ...args]`.
 */
export const operatorCommand: string[] = JSON.parse(readFileSync('package.json', 'utf8'))
  .scripts.parley.split(' ')
  .slice(1);

export interface OperatorRun {
  /** The exit code: 0 done, 1 refused or failed, 2 wrong usage. */
  code: number | null;
  /** Standard output, npm's own lines (`> parley@… parley`) included. */
  out: string;
  err: string;
}

/**
 * `npm run parley -- <args>`, the platform operator's command (server/operator/cli.ts), as the operator
 * runs it: a process of its own, with the server's environment (`env` over this process's).
 */
export function parley(args: string[], env: Record<string, string>): Promise<OperatorRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', 'parley', '--', ...args], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, out, err }));
  });
}
