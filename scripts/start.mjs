// `npm start`: builds only when a source is newer than the last build, then runs the compiled server
// (plain JavaScript: no TypeScript compiler at run time).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { serverEnv, serverNodeArgs } from './serverProcess.mjs';

const built = 'build/server/main.js';
const inputs = ['src', 'server', 'machines', 'public', 'index.html', 'vite.config.ts', 'package-lock.json'];

const newest = (path) => {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
};

const stale =
  !existsSync(built) || !existsSync('dist/index.html') || newest(built) < Math.max(...inputs.map(newest));
if (stale) {
  const result = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
} else {
  console.log('dist/ and build/ are current: not rebuilding');
}
const server = spawn(process.execPath, [...serverNodeArgs, built], {
  stdio: 'inherit',
  env: { ...serverEnv, ...process.env },
});
// The server drains on SIGTERM: pass the signals on and leave with its exit code.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
