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

/** The body of the newest mail to `email` as a mail program shows it (quoted-printable decoded). */
export async function readMail(dataDir: string, email: string, timeoutMs = 10_000): Promise<string> {
  const outbox = join(dataDir, 'outbox');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const file of safeList(outbox).sort().reverse()) {
      const mail = readFileSync(join(outbox, file), 'utf8');
      const [head, ...body] = mail.split('\n\n');
      if (!/^To: (.*)$/m.exec(head)?.[1].toLowerCase().includes(email.toLowerCase())) continue;
      const text = body.join('\n\n');
      return /^Content-Transfer-Encoding: quoted-printable$/im.test(head) ? quotedPrintable(text) : text;
    }
    if (Date.now() > deadline) throw new Error(`no mail to ${email} in ${outbox}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Quoted-printable to text: soft line breaks joined, `=XX` bytes decoded as UTF-8. */
function quotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let index = 0; index < joined.length; index += 1) {
    const hex = joined[index] === '=' ? joined.slice(index + 1, index + 3) : '';
    if (/^[0-9A-F]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      index += 2;
    } else bytes.push(...Buffer.from(joined[index]));
  }
  return Buffer.from(bytes).toString('utf8');
}

function safeList(folder: string): string[] {
  try {
    return readdirSync(folder).filter((name) => name.endsWith('.eml'));
  } catch {
    return [];
  }
}
