import { spawn } from 'node:child_process';

/**
 * `npm run dev`: the API server (restarted on change) and Vite with hot reload, which proxies
 * the API paths to it. Ctrl+C stops both.
 */
const children = [
  spawn(process.execPath, ['--import', 'tsx', '--watch', 'server/main.ts'], {
    stdio: 'inherit',
    // A local model server (Ollama, the tests' double) is on a private address: allowed in development.
    env: {
      ALLOW_PRIVATE_PROVIDER_URLS: 'true',
      ...process.env,
      STATIC_DIR: '',
      PORT: process.env.API_PORT ?? '3000',
    },
  }),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js'], { stdio: 'inherit' }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
for (const child of children) child.on('exit', stop);
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
