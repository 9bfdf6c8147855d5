import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The newest one-time code the server mailed to `email`, read from its outbox folder. */
export async function readCode(dataDir: string, email: string, timeoutMs = 10_000): Promise<string> {
  const outbox = join(dataDir, 'outbox');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = safeList(outbox).sort().reverse();
    for (const file of files) {
      const mail = readFileSync(join(outbox, file), 'utf8');
      if (!mail.toLowerCase().includes(email.toLowerCase())) continue;
      const code = /Your Parley code is (\d{6})/.exec(mail)?.[1];
      if (code) return code;
    }
    if (Date.now() > deadline) throw new Error(`no code mailed to ${email} in ${outbox}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function safeList(folder: string): string[] {
  try {
    return readdirSync(folder).filter((name) => name.endsWith('.eml'));
  } catch {
    return [];
  }
}
