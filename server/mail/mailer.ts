import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}
export type SendMail = (mail: Mail) => Promise<void>;

/**
 * SMTP when SMTP_URL is set; otherwise each message is written as an .eml file under
 * dataDir/outbox, so `npm start` needs no mail server and tests read codes from files.
 */
export function createMailer(options: {
  smtpUrl?: string;
  from: string;
  dataDir: string;
  log: (line: string) => void;
}): SendMail {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return async (mail) => {
      await transport.sendMail({ from: options.from, ...mail });
      options.log('mail sent over SMTP');
    };
  }
  const outbox = join(options.dataDir, 'outbox');
  mkdirSync(outbox, { recursive: true });
  const render = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return async (mail) => {
    const { message } = await render.sendMail({ from: options.from, ...mail });
    const file = `${Date.now()}-${randomBytes(4).toString('hex')}.eml`;
    writeFileSync(join(outbox, file), message as Buffer);
    options.log(`mail written to outbox/${file}`);
  };
}
