import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningPostgres, startPostgres } from './postgres';
import { freePort, type RunningServer, startServer } from './server';

const nginxBinary = '/usr/sbin/nginx';

export interface Cluster {
  /** nginx, round-robin over the nodes. */
  url: string;
  nodes: RunningServer[];
  postgres: RunningPostgres;
  stop: () => Promise<void>;
}

/** nginx in front of `upstreams`, round-robin, buffering off (server-sent events flow through at once). */
async function startNginx(upstreams: number[]) {
  if (!existsSync(nginxBinary)) throw new Error('nginx not found: apt-get install nginx (.ci/run does this)');
  const folder = mkdtempSync(join(tmpdir(), 'parley-nginx-'));
  // Its workers run as nobody: they need to reach their temporary folders.
  chmodSync(folder, 0o777);
  for (const name of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'])
    mkdirSync(join(folder, name), { mode: 0o777 });
  const port = await freePort();
  writeFileSync(
    join(folder, 'nginx.conf'),
    `worker_processes 1;
daemon off;
pid ${folder}/nginx.pid;
error_log ${folder}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${folder}/body;
  proxy_temp_path ${folder}/proxy;
  fastcgi_temp_path ${folder}/fastcgi;
  uwsgi_temp_path ${folder}/uwsgi;
  scgi_temp_path ${folder}/scgi;
  upstream parley {
${upstreams.map((upstream) => `    server 127.0.0.1:${upstream} max_fails=1 fail_timeout=5s;`).join('\n')}
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://parley;
      proxy_http_version 1.1;
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header Connection "";
      proxy_buffering off;
      proxy_read_timeout 1h;
    }
  }
}
`,
  );
  const child: ChildProcess = spawn(nginxBinary, ['-p', folder, '-c', join(folder, 'nginx.conf')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr?.on('data', (chunk) => {
    log += chunk;
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited:\n${log}`);
    try {
      await fetch(`${url}/health`);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`nginx did not start:\n${log}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGQUIT');
        await exited;
      }
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * A throwaway PostgreSQL, `size` Parley nodes (processes sharing JWT_SECRET and RSA_PRIVATE_KEY) and
 * nginx round-robin in front, as the README's "Running several nodes" describes.
 */
export async function startCluster(size: number, env: Record<string, string> = {}): Promise<Cluster> {
  const postgres = await startPostgres();
  const shared = {
    STATIC_DIR: '',
    DATABASE_URL: postgres.url,
    JWT_SECRET: 'one secret for every node of this cluster',
    RSA_PRIVATE_KEY: generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString(),
    TRUST_PROXY: '127.0.0.1',
    RATE_LIMIT_OTP_PER_IP_PER_HOUR: '10000',
    RATE_LIMIT_API_PER_MINUTE: '100000',
    ...env,
  };
  const nodes = await Promise.all(Array.from({ length: size }, () => startServer(shared)));
  const nginx = await startNginx(nodes.map((node) => node.port));
  return {
    url: nginx.url,
    nodes,
    postgres,
    stop: async () => {
      await nginx.stop();
      for (const node of nodes) await node.stop();
      postgres.stop();
    },
  };
}
