import { parseArgs } from 'node:util';
import { createCodes } from '../auth/codes';
import { loadConfig } from '../config';
import { type Db, openDatabase } from '../db/database';
import { DatabaseInUse } from '../db/lock';
import { migrate } from '../db/migrate';
import { createMailer } from '../mail/mailer';
import { loadSecrets } from '../security/secrets';
import { createOrganization, listOrganizations, OperatorError, setDisabled } from './organizations';

const usage = `Usage: npm run parley -- org <command>

  org create <subdomain> --name "<Name>" --owner <email>
      creates the organization and mails its owner a code to choose a password
  org list
      lists the organizations, their members and owners
  org disable <subdomain>
      stops serving the organization (its data is kept)
  org enable <subdomain>
      serves it again

It works on the server's own database: DATABASE_URL (PostgreSQL, while nodes run) or DATA_DIR (the
embedded database, only while no server uses it). Run it with the server's environment (JWT_SECRET,
SMTP_URL, MAIL_FROM): the owner's code is mailed through SMTP_URL, or written to DATA_DIR/outbox.`;

export interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** The operator's command: answers its exit code (0 done, 1 refused or failed, 2 wrong usage). */
export async function runOperator(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: Io = { out: console.log, err: console.error },
): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    io.err(`parley: ${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  if (!parsed) {
    io.out(usage);
    return 0;
  }
  const config = loadConfig(env);
  let db: Db;
  try {
    db = await openDatabase(config);
  } catch (error) {
    if (error instanceof DatabaseInUse) {
      io.err(`parley: ${error.message}`);
      return 1;
    }
    io.err(`parley: cannot open the database: ${(error as Error).message}`);
    return 1;
  }
  try {
    await migrate(db);
    const { command, subdomain, values } = parsed;
    if (command === 'list') {
      const organizations = await listOrganizations(db);
      const rows = organizations.map((organization) => [
        organization.subdomain,
        organization.name,
        organization.disabled ? 'disabled' : 'active',
        String(organization.members),
        organization.owners.join(', ') || '-',
      ]);
      const table = [['SUBDOMAIN', 'NAME', 'STATUS', 'MEMBERS', 'OWNERS'], ...rows];
      const widths = table[0].map((_, column) => Math.max(...table.map((row) => row[column].length)));
      for (const row of table)
        io.out(
          row
            .map((cell, column) => cell.padEnd(widths[column]))
            .join('  ')
            .trimEnd(),
        );
      return 0;
    }
    if (command === 'create') {
      const secrets = loadSecrets(config.dataDir, config);
      const created = await createOrganization(
        {
          db,
          codes: createCodes(db, secrets.jwtSecret),
          sendMail: createMailer({ ...config, from: config.mailFrom, log: () => {} }),
          startingBalance: config.startingBalance,
        },
        { subdomain: subdomain as string, name: values.name ?? '', owner: values.owner ?? '' },
      );
      io.out(
        `Created the organization ${created.subdomain} (${created.name}). ` +
          `Its owner ${created.owner} was mailed a code to choose a password${config.smtpUrl ? '' : ` (in ${config.dataDir}/outbox)`}.`,
      );
      return 0;
    }
    const disable = command === 'disable';
    const changed = await setDisabled(db, subdomain as string, disable);
    io.out(
      changed
        ? `The organization ${subdomain} is ${disable ? 'disabled: its data is kept, nobody can use it' : 'enabled again'}.`
        : `The organization ${subdomain} was ${disable ? 'disabled' : 'enabled'} already.`,
    );
    return 0;
  } catch (error) {
    if (error instanceof OperatorError) {
      io.err(`parley: ${error.message}`);
      return 1;
    }
    io.err(`parley: failed: ${(error as Error).message}`);
    return 1;
  } finally {
    await db.close();
  }
}

type Command = 'create' | 'list' | 'disable' | 'enable';

function parse(argv: string[]) {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: { name: { type: 'string' }, owner: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help || !positionals.length) return null;
  const [area, command, subdomain, ...extra] = positionals;
  if (area !== 'org') throw new Error(`unknown command: ${area}`);
  if (!['create', 'list', 'disable', 'enable'].includes(command ?? ''))
    throw new Error(command ? `unknown command: org ${command}` : 'which org command?');
  if (extra.length) throw new Error(`unexpected: ${extra.join(' ')}`);
  if (command === 'list') {
    if (subdomain) throw new Error(`unexpected: ${subdomain}`);
  } else if (!subdomain) throw new Error(`org ${command} needs a subdomain`);
  if (command === 'create') {
    if (!values.name) throw new Error('org create needs --name "<Name>"');
    if (!values.owner) throw new Error('org create needs --owner <email>');
  } else if (values.name || values.owner) throw new Error('--name and --owner are for org create');
  return { command: command as Command, subdomain, values };
}
