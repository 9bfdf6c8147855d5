import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The operator's command line as package.json's `parley` script has it (its node options included). */
const operatorCommand: string[] = JSON.parse(readFileSync('package.json', 'utf8'))
  .scripts.parley.split(' ')
  .slice(1);

export interface OperatorRun {
  /** The exit code: 0 done, 1 refused or failed, 2 wrong usage. */
  code: number | null;
  out: string;
  err: string;
}

/** The operator commands still running: a test that gives up leaves none holding the database. */
const running = new Set<ReturnType<typeof spawn>>();

/**
 * `npm run parley -- <args>`, the platform operator's command (server/operator/cli.ts), as the operator
 * runs it: a process of its own (package.json's command line, without npm's own lines around its
 * output), with the server's environment (`env` over this process's).
 */
export function parley(args: string[], env: Record<string, string>): Promise<OperatorRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...operatorCommand, ...args], {
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
    running.add(child);
    child.once('error', reject);
    child.once('close', (code) => {
      running.delete(child);
      resolve({ code, out, err });
    });
  });
}

/** Ends the operator commands still running (after a test that gave up on one). */
export function killOperatorCommands() {
  for (const child of running) child.kill('SIGKILL');
}
