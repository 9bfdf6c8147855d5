import { resolve } from 'node:path';

/** Every setting the server reads from the environment, in one place. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Built web app to serve; absent means API only. */
  staticDir: string | undefined;
  logLevel: string;
  /** PostgreSQL connection string; absent means embedded PGlite under dataDir. */
  databaseUrl: string | undefined;
  /** Connections of this node's PostgreSQL pool. */
  databasePoolSize: number;
  /** HS256 secret; generated and kept in dataDir when absent. */
  jwtSecret: string | undefined;
  /** RSA private key (PEM text) the web app's sensitive fields are encrypted for; generated in dataDir when absent. */
  rsaPrivateKey: string | undefined;
  /** On SIGTERM: how long running replies may go on before they are stopped and the process exits. */
  shutdownGraceMs: number;
  /** SMTP server for mail; absent means the outbox folder under dataDir. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Fastify's trustProxy: which proxies' X-Forwarded-For names the client (true, a hop count, or addresses). */
  trustProxy: boolean | number | string;
  /** Answers of the translation provider kept; the least recently used go beyond it. */
  translationMemorySize: number;
  /** Origins of a separately hosted web app allowed to call the API (CORS). */
  publicOrigins: string[];
  /**
   * The address people open, without an organization (`https://parley.example`): links in mails go
   * to an organization's subdomain of it. Absent: the address the request came to.
   */
  publicUrl: string | undefined;
  rateLimits: {
    /** One-time codes per email address per hour. */
    otpPerEmailPerHour: number;
    /** One-time codes and signups per IP per hour. */
    otpPerIpPerHour: number;
    /** Password checks per account and client address in 15 minutes before 429. */
    loginFailures: number;
    /** Password checks per client address (any account) in 15 minutes before 429. */
    loginFailuresPerIp: number;
    /** Texts one user may send to the translation provider per minute. */
    translatePerUserPerMinute: number;
    /** Requests per minute per IP on the other API routes. */
    apiPerMinute: number;
    /** Requests per minute per personal API key on `/v1/…` (Parley's OpenAI-compatible API). */
    apiKeyPerMinute: number;
  };
  openai: {
    baseUrl: string | undefined;
    apiKey: string | undefined;
    model: string;
    /** Milliseconds without a byte from the provider before the reply fails. */
    idleTimeoutMs: number;
  };
  /** The longest an image generation may take, from the request to its last byte (image models are slow). */
  imageTimeoutMs: number;
  /** What a new account starts with, in its organization's currency. */
  startingBalance: number;
  /** A reply nobody follows for this long is stopped (kept as far as it got, not charged). */
  replyUnattendedMs: number;
  /** Pause between the words of a built-in bot's streamed reply. */
  builtinTokenDelayMs: number;
  /** A LibreTranslate server for texts the built-in catalogs do not have. */
  libreTranslateUrl: string | undefined;
  /**
   * Lets organizations' providers use loopback, private and link-local addresses (local model servers
   * in development and tests). Off by default: the server refuses them (SSRF).
   */
  allowPrivateProviderUrls: boolean;
  /** How long a node keeps an identity provider's discovered metadata (OpenID Connect); 0: not kept. */
  oidcMetadataTtlMs: number;
  /** Seals organizations' provider API keys (AES-256-GCM); absent: derived from the JWT secret. */
  providerKeySecret: string | undefined;
  /** Uploads (attachments): what one may be, and what reading it may cost. */
  files: {
    /** One upload at most, in bytes (413 beyond). */
    maxBytes: number;
    /** A PDF's pages at most (413 beyond). */
    maxPages: number;
    /** What a DOCX may unpack to at most, in bytes (413 beyond: zip bombs). */
    maxExpandedBytes: number;
    /** An image's pixels at most, all frames counted (413 beyond). */
    maxPixels: number;
    /** An animation's pixels at most, all frames counted (413 beyond): a frame costs more than a still's pixels. */
    maxAnimationPixels: number;
    /** Reading one upload (its text, or an image's processing) at most; then it is refused. */
    extractTimeoutMs: number;
    /** Memory of the process reading one upload: its JavaScript heap, and what it holds besides. */
    extractMemoryMb: number;
    /** Uploads read at once on one node, one member's at most half of them; more wait their turn. */
    extractConcurrency: number;
  };
  /** Bringing one's history from another service (ChatGPT's or Claude's export). */
  imports: {
    /** One export at most, in bytes (413 beyond): other routes keep their own limits. */
    maxBytes: number;
    /** What the conversations of a `.zip` export may unpack to at most, in bytes (422 beyond: zip bombs). */
    maxExpandedBytes: number;
    /** Imports one member may start per hour (they are heavy). */
    perUserPerHour: number;
  };
  /** Web search (the organization's SearXNG or Brave Search, its admins' `search` setting). */
  search: {
    /** How long one search may take before the tool step fails (the reply goes on without it). */
    timeoutMs: number;
    /** Brave Search's web search endpoint: the real one, another only for tests. */
    braveUrl: string;
  };
  /** Voice: transcription and speech through the organization's OpenAI-compatible audio endpoints. */
  audio: {
    /** How long one provider call may take, in ms (then a clear 504, nothing charged). */
    timeoutMs: number;
    /** Transcriptions one member may ask for per minute, and as many speeches. */
    perUserPerMinute: number;
  };
  knowledge: {
    /** The model asked for vectors (`POST /embeddings`) when the organization's provider answers it. */
    embeddingModel: string;
  };
}

const number = (value: string | undefined, fallback: number) => {
  const parsed = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(parsed) ? parsed : fallback;
};
const optional = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);

/** `true`/`false`, a number of hops, or a comma-separated list of proxy addresses and CIDR ranges. */
/** An http(s) address with nothing after its host, or a plain sentence at start-up saying what is wrong. */
function publicUrl(value: string | undefined): string | undefined {
  const setting = optional(value);
  if (!setting) return undefined;
  const url = URL.canParse(setting) ? new URL(setting) : null;
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.pathname !== '/' || url.search || url.hash)
    throw new Error(`PUBLIC_URL must be an http(s) address such as https://parley.example, not ${setting}`);
  return url.origin;
}

function trustProxy(value: string | undefined): boolean | number | string {
  const setting = value?.trim().toLowerCase();
  if (!setting || setting === 'false') return false;
  if (setting === 'true') return true;
  return /^\d+$/.test(setting) ? Number(setting) : setting;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: number(env.PORT, 3000),
    host: env.HOST ?? '0.0.0.0',
    dataDir: resolve(env.DATA_DIR ?? './data'),
    staticDir: env.STATIC_DIR === '' ? undefined : resolve(env.STATIC_DIR ?? './dist'),
    logLevel: env.LOG_LEVEL ?? 'info',
    databaseUrl: optional(env.DATABASE_URL),
    databasePoolSize: number(env.DATABASE_POOL_SIZE, 20),
    jwtSecret: optional(env.JWT_SECRET),
    // A PEM in one line of an environment file may carry its line breaks as \n.
    rsaPrivateKey: optional(env.RSA_PRIVATE_KEY)?.replaceAll('\\n', '\n'),
    shutdownGraceMs: number(env.SHUTDOWN_GRACE_SECONDS, 30) * 1000,
    smtpUrl: optional(env.SMTP_URL),
    mailFrom: env.MAIL_FROM ?? 'Parley <no-reply@parley.localhost>',
    trustProxy: trustProxy(env.TRUST_PROXY),
    translationMemorySize: number(env.TRANSLATION_MEMORY_SIZE, 10_000),
    publicOrigins: (env.PUBLIC_ORIGINS ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    publicUrl: publicUrl(env.PUBLIC_URL),
    rateLimits: {
      otpPerEmailPerHour: number(env.RATE_LIMIT_OTP_PER_EMAIL_PER_HOUR, 5),
      otpPerIpPerHour: number(env.RATE_LIMIT_OTP_PER_IP_PER_HOUR, 30),
      loginFailures: number(env.RATE_LIMIT_LOGIN_FAILURES, 5),
      loginFailuresPerIp: number(env.RATE_LIMIT_LOGIN_FAILURES_PER_IP, 50),
      translatePerUserPerMinute: number(env.RATE_LIMIT_TRANSLATE_PER_USER_PER_MINUTE, 60),
      apiPerMinute: number(env.RATE_LIMIT_API_PER_MINUTE, 600),
      apiKeyPerMinute: number(env.RATE_LIMIT_API_KEY_PER_MINUTE, 60),
    },
    openai: {
      baseUrl: optional(env.OPENAI_BASE_URL),
      apiKey: optional(env.OPENAI_API_KEY),
      model: env.OPENAI_MODEL ?? 'gpt-4o-mini',
      idleTimeoutMs: number(env.OPENAI_IDLE_TIMEOUT_MS, 30_000),
    },
    builtinTokenDelayMs: number(env.BUILTIN_TOKEN_DELAY_MS, 30),
    replyUnattendedMs: number(env.REPLY_UNATTENDED_SECONDS, 60) * 1000,
    imageTimeoutMs: number(env.IMAGE_TIMEOUT_SECONDS, 120) * 1000,
    startingBalance: number(env.STARTING_BALANCE, 10),
    libreTranslateUrl: optional(env.LIBRETRANSLATE_URL),
    allowPrivateProviderUrls: env.ALLOW_PRIVATE_PROVIDER_URLS?.trim().toLowerCase() === 'true',
    providerKeySecret: optional(env.PROVIDER_KEY_SECRET),
    oidcMetadataTtlMs: number(env.OIDC_METADATA_TTL_SECONDS, 300) * 1000,
    files: {
      maxBytes: number(env.UPLOAD_MAX_BYTES, 20 * 1024 * 1024),
      maxPages: number(env.UPLOAD_MAX_PAGES, 1000),
      maxExpandedBytes: number(env.UPLOAD_MAX_EXPANDED_BYTES, 100 * 1024 * 1024),
      maxPixels: number(env.UPLOAD_MAX_PIXELS, 50_000_000),
      maxAnimationPixels: number(env.UPLOAD_MAX_ANIMATION_PIXELS, 10_000_000),
      extractTimeoutMs: number(env.EXTRACT_TIMEOUT_SECONDS, 15) * 1000,
      extractMemoryMb: number(env.EXTRACT_MEMORY_MB, 256),
      extractConcurrency: number(env.EXTRACT_CONCURRENCY, 2),
    },
    imports: {
      maxBytes: number(env.IMPORT_MAX_MB, 200) * 1024 * 1024,
      maxExpandedBytes: number(env.IMPORT_MAX_EXPANDED_MB, 2048) * 1024 * 1024,
      perUserPerHour: number(env.RATE_LIMIT_IMPORTS_PER_USER_PER_HOUR, 10),
    },
    search: {
      timeoutMs: number(env.SEARCH_TIMEOUT_SECONDS, 5) * 1000,
      braveUrl: optional(env.BRAVE_SEARCH_URL) ?? 'https://api.search.brave.com/res/v1/web/search',
    },
    audio: {
      timeoutMs: number(env.AUDIO_TIMEOUT_SECONDS, 120) * 1000,
      perUserPerMinute: number(env.RATE_LIMIT_AUDIO_PER_USER_PER_MINUTE, 20),
    },
    knowledge: { embeddingModel: env.OPENAI_EMBEDDING_MODEL ?? 'text-embedding-3-small' },
  };
}
