import type { Db } from '../db/database';
import { seedGuide } from './guide';

interface SeedBot {
  name: string;
  description: string;
  platform: 'builtin' | 'openai';
  price: number;
  categories: string[];
  config: Record<string, unknown>;
  /** Off on purpose, to show the catalogue lists active bots only. */
  retired?: boolean;
}

/** In every organization: the seeded ones, those the operator creates, and older ones (800_knowledge.sql). */
export const librarian: SeedBot = {
  name: 'Librarian',
  description:
    'Finds and quotes the passages of your attached files and of the knowledge bases that answer your question, with their sources. No model involved.',
  platform: 'builtin',
  price: 0,
  categories: ['Documents'],
  config: { engine: 'librarian' },
};

const sharedBots: SeedBot[] = [
  {
    name: 'ELIZA',
    description:
      "Weizenbaum's 1966 DOCTOR: a Rogerian psychotherapist who turns what you say into questions.",
    platform: 'builtin',
    price: 0.01,
    categories: ['Classics', 'Conversation'],
    config: { engine: 'eliza' },
  },
  {
    name: 'Calculator',
    description: 'Exact arithmetic: + − × ÷ ^ %, parentheses and decimals, with no rounding surprises.',
    platform: 'builtin',
    price: 0,
    categories: ['Tools'],
    config: { engine: 'calculator' },
  },
  {
    name: 'Translator',
    description:
      'Translates between English and 12 languages: write “translate to German: Welcome to Parley”. Offline it knows the words of Parley’s own screens; with a translation service, any text.',
    platform: 'builtin',
    // Free like the other offline bots: looking a phrase up costs nothing (an admin may price it).
    price: 0,
    categories: ['Languages', 'Tools'],
    config: { engine: 'translator' },
  },
  {
    name: 'Assistant',
    description: 'A general assistant on your OpenAI-compatible model server.',
    platform: 'openai',
    price: 0.05,
    categories: ['Conversation', 'Writing'],
    config: { systemPrompt: 'You are Parley Assistant, a helpful, concise assistant. Answer in markdown.' },
  },
  {
    name: 'Code Helper',
    description: 'Explains and writes code, with examples in fenced blocks.',
    platform: 'openai',
    price: 0.08,
    categories: ['Coding'],
    config: {
      systemPrompt: 'You are a senior software engineer. Explain briefly and show code in fenced blocks.',
    },
  },
  librarian,
];

const organizations = [
  {
    subdomain: 'app',
    name: 'Parley',
    bots: [
      ...sharedBots,
      {
        name: 'Oracle',
        description: 'A retired fortune teller.',
        platform: 'builtin',
        price: 0,
        categories: ['Classics'],
        config: { engine: 'eliza' },
        retired: true,
      } satisfies SeedBot,
    ],
  },
  {
    subdomain: 'acme',
    name: 'Acme Corporation',
    bots: [
      ...sharedBots,
      {
        name: 'Acme Helpdesk',
        description: 'Answers questions about Acme products, on the model server.',
        platform: 'openai',
        price: 0.03,
        categories: ['Support'],
        config: { systemPrompt: 'You are the Acme Corporation helpdesk. Be friendly and brief.' },
      } satisfies SeedBot,
      {
        name: 'Intranet Bot',
        description: 'The old intranet search, switched off.',
        platform: 'builtin',
        price: 0,
        categories: ['Support'],
        config: { engine: 'eliza' },
        retired: true,
      } satisfies SeedBot,
    ],
  },
];

export const demoUser = {
  email: 'demo@parley.test',
  password: 'parley-demo-1',
  username: 'demo',
  displayName: 'Demo User',
};

/** The owner of both demo organizations: the admin area's first user. */
export const adminUser = {
  email: 'admin@parley.test',
  password: 'parley-admin-1',
  username: 'admin',
  displayName: 'Parley Admin',
};

/**
 * The published demo passwords hashed once (argon2id with the parameters of security/passwords.ts):
 * a start hashes nothing, where two argon2 runs of 19 MiB each stayed in the process's memory.
 */
export const seededHashes = {
  demo: '$argon2id$v=19$m=19456,t=2,p=1$Q7gBS+/UfMfqHEMZMLKsmA$K0KjRqdmxLgog50RqX8bKY9RoT0l9bMXwetP415Dx8k',
  admin: '$argon2id$v=19$m=19456,t=2,p=1$QBKojaqvrdtiwVIwXkxKtw$0HOc2M4HqpqF2T+2I2ecYtZzCn9LIQUb+66OP6w7l1A',
};

/** Adds the bot to the organization unless it has one of that name, with its categories. */
export async function seedBot(db: Db, tenant: string, bot: SeedBot, position: number) {
  const { rows } = await db.query<{ id: string }>(
    `insert into bots (tenant, name, description, active, platform, price, config, position)
     values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict (tenant, name) where owner_id is null do nothing returning id`,
    [
      tenant,
      bot.name,
      bot.description,
      !bot.retired,
      bot.platform,
      bot.price,
      JSON.stringify(bot.config),
      position,
    ],
  );
  if (!rows[0]) return;
  for (const category of bot.categories) {
    const { rows: found } = await db.query<{ id: string }>(
      `insert into categories (tenant, name) values ($1, $2)
       on conflict (tenant, name) do update set name = excluded.name returning id`,
      [tenant, category],
    );
    await db.query('insert into bot_categories (bot_id, category_id) values ($1, $2)', [
      rows[0].id,
      found[0].id,
    ]);
  }
}

/** The Librarian, searching Parley's guide: in every organization, seeded or created by the operator. */
export async function seedLibrarian(db: Db, tenant: string, position: number) {
  const guide = await seedGuide(db, tenant);
  const bot = guide ? { ...librarian, config: { ...librarian.config, knowledge: [guide] } } : librarian;
  await seedBot(db, tenant, bot, position);
}

/**
 * First start: the organizations, their categories, bots, a demo user and their owner. Later starts change
 * nothing: shared data is never rewritten by a node's own settings.
 */
export async function seed(db: Db) {
  await db.transaction(async (tx) => {
    for (const [position, organization] of organizations.entries()) {
      await tx.query(
        'insert into organizations (subdomain, name) values ($1, $2) on conflict (subdomain) do nothing',
        [organization.subdomain, organization.name],
      );
      for (const [index, bot] of organization.bots.entries()) {
        const at = position * 100 + index;
        await (bot === librarian
          ? seedLibrarian(tx, organization.subdomain, at)
          : seedBot(tx, organization.subdomain, bot, at));
      }
      await tx.query(
        `insert into users (tenant, username, display_name, email, password_hash, balance, currency)
         values ($1, $2, $3, $4, $5, 10, 'EUR') on conflict do nothing`,
        [organization.subdomain, demoUser.username, demoUser.displayName, demoUser.email, seededHashes.demo],
      );
      await tx.query(
        `insert into users (tenant, username, display_name, email, password_hash, balance, currency, role)
         values ($1, $2, $3, $4, $5, 10, 'EUR', 'owner') on conflict do nothing`,
        [
          organization.subdomain,
          adminUser.username,
          adminUser.displayName,
          adminUser.email,
          seededHashes.admin,
        ],
      );
    }
  });
}
