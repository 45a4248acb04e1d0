import { type Static, Type as t } from '@sinclair/typebox';
import { Value, type ValueError } from '@sinclair/typebox/value';
import { LOG_FORMATS, LOG_LEVELS } from './logger.ts';

/**
 * Every setting svc reads, as one schema over environment variables (docs/contract/operations.md). This is the
 * only module that reads `process.env`; command-line flags (`--port`, `--host`) override the variables.
 */
export const ConfigSchema = t.Object({
  PORT: t.Integer({ minimum: 0, maximum: 65535, default: 8080, description: 'TCP port to listen on' }),
  HOST: t.String({ minLength: 1, default: '0.0.0.0', description: 'address to bind' }),
  DATABASE_URL: t.String({
    pattern: '^(file:|libsql://|https?://|wss?://|postgres(ql)?://)',
    default: 'file:./data/svc.db',
    description: 'file:… (embedded libSQL), libsql://… (remote libSQL) or postgres://… (PostgreSQL)',
  }),
  SVC_PUBLIC_URL: t.Optional(t.String({ pattern: '^https?://[^/]+', description: 'public address of this server; default http://localhost:{PORT}' })),
  SVC_SECRET: t.Optional(
    t.String({
      minLength: 32,
      description:
        'signing secret; required with Postgres or remote libSQL, else generated into a 0600 file beside the database (src/platform/server-secret.ts)',
    }),
  ),
  SVC_DB_POOL_SIZE: t.Integer({
    minimum: 1,
    maximum: 1000,
    default: 10,
    description: 'Postgres connections one svc process opens at most (its one pool, shared by storage and rate limits)',
  }),
  SVC_METRICS_TOKEN: t.Optional(
    t.String({
      minLength: 16,
      description: 'bearer token of GET /metrics (Prometheus); unset: the route does not exist (404)',
    }),
  ),
  SVC_PAYMENTS: t.Union([t.Literal('none'), t.Literal('test'), t.Literal('stripe'), t.Literal('mollie')], { default: 'none' }),
  STRIPE_SECRET_KEY: t.Optional(t.String({ minLength: 1 })),
  STRIPE_WEBHOOK_SECRET: t.Optional(t.String({ minLength: 1 })),
  SVC_STRIPE_PROMOTION_CODES: t.Boolean({ default: false, description: 'let customers enter Stripe promotion codes at Stripe Checkout' }),
  MOLLIE_API_KEY: t.Optional(t.String({ minLength: 1, description: 'Mollie API key (live_… or test_…); required when SVC_PAYMENTS=mollie' })),
  MOLLIE_API_URL: t.Optional(
    t.String({ pattern: '^https?://', description: 'root of the Mollie API, default https://api.mollie.com/v2/ (tests: a local stand-in)' }),
  ),
  SVC_TRUST_PROXY: t.Boolean({ default: false, description: 'use X-Forwarded-For for the client IP' }),
  LOG_LEVEL: t.Union(
    LOG_LEVELS.map((level) => t.Literal(level)),
    { default: 'info' },
  ),
  LOG_FORMAT: t.Optional(
    t.Union(
      LOG_FORMATS.map((format) => t.Literal(format)),
      { description: 'json (one object a line) or text; default text when stdout and stderr are terminals, else json' },
    ),
  ),
  SVC_WEBHOOK_RETRY_SCHEDULE: t.String({
    pattern: '^\\d+(\\.\\d+)?(,\\d+(\\.\\d+)?)*$',
    default: '5,300,1800,7200,18000,36000,36000',
    description: 'seconds between webhook attempts, comma-separated',
  }),
  SVC_WEBHOOK_ALLOW_PRIVATE: t.Boolean({ default: false, description: 'allow webhook URLs on loopback/private addresses' }),
  SVC_CALENDAR_ALLOW_PRIVATE: t.Boolean({ default: false, description: 'allow calendar URLs on loopback/private addresses' }),
  SVC_CALENDAR_SYNC_SECONDS: t.Integer({
    minimum: 1,
    maximum: 86400,
    default: 300,
    description: "seconds between the scheduler's syncs of each connected calendar (one instance syncs a connection at a time)",
  }),
  SVC_GOOGLE_CLIENT_ID: t.Optional(
    t.String({ minLength: 1, description: 'OAuth client id of the Google Calendar connection (with SVC_GOOGLE_CLIENT_SECRET)' }),
  ),
  SVC_GOOGLE_CLIENT_SECRET: t.Optional(t.String({ minLength: 1, description: 'OAuth client secret of the Google Calendar connection' })),
  SVC_GOOGLE_OAUTH_URL: t.Optional(
    t.String({
      pattern: '^https?://',
      description: 'Google consent and token endpoints (tests, proxies); default https://accounts.google.com and https://oauth2.googleapis.com',
    }),
  ),
  SVC_GOOGLE_API_URL: t.Optional(
    t.String({ pattern: '^https?://', description: 'Google Calendar API base (tests, proxies); default https://www.googleapis.com' }),
  ),
  SVC_MICROSOFT_CLIENT_ID: t.Optional(
    t.String({ minLength: 1, description: 'application (client) id of the Microsoft 365 connection (with SVC_MICROSOFT_CLIENT_SECRET)' }),
  ),
  SVC_MICROSOFT_CLIENT_SECRET: t.Optional(t.String({ minLength: 1, description: 'client secret of the Microsoft 365 connection' })),
  SVC_MICROSOFT_TENANT: t.String({
    minLength: 1,
    default: 'common',
    description: 'Microsoft identity tenant: common, organizations, consumers or a tenant id',
  }),
  SVC_MICROSOFT_LOGIN_URL: t.Optional(
    t.String({ pattern: '^https?://', description: 'Microsoft identity platform base (tests, proxies); default https://login.microsoftonline.com' }),
  ),
  SVC_MICROSOFT_GRAPH_URL: t.Optional(
    t.String({ pattern: '^https?://', description: 'Microsoft Graph base (tests, proxies); default https://graph.microsoft.com' }),
  ),
  SVC_RATE_LIMIT: t.Integer({ minimum: 1, default: 120, description: 'v1 requests per minute per API key (per client IP without a key)' }),
  SVC_PAYMENT_HOLD_MINUTES: t.Integer({ minimum: 1, maximum: 1440, default: 30 }),
  SVC_WAITLIST_HOLD_MINUTES: t.Integer({
    minimum: 1,
    maximum: 10080,
    default: 60,
    description: 'how long a seat offered to a waiting list is held for its entry',
  }),
  SVC_CAPTCHA_SECRET: t.Optional(t.String({ minLength: 1 })),
  SVC_CAPTCHA_VERIFY_URL: t.Optional(t.String({ pattern: '^https?://' })),
  SVC_CAPTCHA_PROVIDER: t.Optional(
    t.Union([t.Literal('recaptcha'), t.Literal('turnstile'), t.Literal('hcaptcha')], { description: 'the captcha the widget shows' }),
  ),
  SVC_CAPTCHA_SITE_KEY: t.Optional(t.String({ minLength: 1, description: 'the public site key of SVC_CAPTCHA_PROVIDER' })),
  SVC_SMTP_URL: t.Optional(
    t.String({
      pattern: '^smtps?://',
      description: 'where customer mails are sent: smtp://user:password@host:587 (STARTTLS) or smtps://user:password@host:465; unset = no mails',
    }),
  ),
  SVC_MAIL_FROM: t.Optional(
    t.String({ minLength: 3, description: 'the From of customer mails: bookings@example.com or "Acme Studio <bookings@example.com>"' }),
  ),
  SVC_REMINDER_HOURS: t.Integer({ minimum: 1, maximum: 336, default: 24, description: 'hours before the start at which the customer gets a reminder' }),
  SVC_SHUTDOWN_GRACE_SECONDS: t.Integer({
    minimum: 1,
    maximum: 3600,
    default: 10,
    description: 'how long svc serve goes on answering requests after SIGTERM before it closes the connections still open',
  }),
  SVC_DEMO: t.Boolean({ default: true, description: 'create the demo workspace on start and reset it daily' }),
  SVC_PANEL_SESSION_SECONDS: t.Integer({
    minimum: 10,
    maximum: 86_400,
    default: 1800,
    description: 'lifetime of an admin-panel session in seconds (30 minutes); shorter values are for tests',
  }),
});

/** The settings as svc uses them: defaults applied, SVC_PUBLIC_URL resolved. */
export type Config = Omit<Static<typeof ConfigSchema>, 'SVC_PUBLIC_URL'> & { SVC_PUBLIC_URL: string };
export type ConfigKey = keyof Config;

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

const FLAG_TO_KEY: Record<string, ConfigKey> = { port: 'PORT', host: 'HOST' };

/** Reads the config from `env` (default `process.env`) and `flags`; throws ConfigError naming the bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env, flags: Record<string, string> = {}): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(ConfigSchema.properties)) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  for (const [flag, value] of Object.entries(flags)) {
    const key = FLAG_TO_KEY[flag];
    if (key) raw[key] = value;
  }
  return parseConfig(raw);
}

/** What is wrong with a value, phrased as what to write instead where TypeBox's own message is unhelpful. */
function problemOf(error: ValueError): string {
  const options = 'anyOf' in error.schema && Array.isArray(error.schema.anyOf) ? (error.schema.anyOf as { const?: unknown }[]) : [];
  if (options.length > 0 && options.every((option) => 'const' in option)) return `must be one of ${options.map((option) => String(option.const)).join(', ')}`;
  return error.message.toLowerCase();
}

const SECRET_BEARING = /SECRET|SMTP_URL|API_KEY/;
const gotten = (variable: string, given: unknown) => (given === undefined ? '' : ` (got ${JSON.stringify(SECRET_BEARING.test(variable) ? '***' : given)})`);

/** Validates an already assembled settings object (tests build configs this way). */
export function parseConfig(raw: Record<string, unknown>): Config {
  // TypeBox converts "80.5", "1e3" and "0x10" to the integers 80, 1 and 16; a setting written that way is a mistake.
  for (const [key, schema] of Object.entries(ConfigSchema.properties)) {
    const given = raw[key];
    const whole = typeof given === 'string' ? /^\s*-?\d+\s*$/.test(given) : typeof given !== 'number' || Number.isInteger(given);
    if (schema.type === 'integer' && !whole) {
      throw new ConfigError(key, `must be a whole number${gotten(key, given)}`);
    }
  }
  const candidate = Value.Default(ConfigSchema, Value.Convert(ConfigSchema, { ...raw }));
  const [first] = Value.Errors(ConfigSchema, candidate);
  if (first) {
    const variable = first.path.replace(/^\//, '') || 'configuration';
    throw new ConfigError(variable, `${problemOf(first)}${gotten(variable, raw[variable])}`);
  }
  const config = candidate as Static<typeof ConfigSchema>;
  if (config.SVC_PAYMENTS === 'stripe') {
    if (!config.STRIPE_SECRET_KEY) throw new ConfigError('STRIPE_SECRET_KEY', 'is required when SVC_PAYMENTS=stripe');
    if (!config.STRIPE_WEBHOOK_SECRET) throw new ConfigError('STRIPE_WEBHOOK_SECRET', 'is required when SVC_PAYMENTS=stripe');
  }
  if (config.SVC_PAYMENTS === 'mollie') {
    if (!config.MOLLIE_API_KEY) throw new ConfigError('MOLLIE_API_KEY', 'is required when SVC_PAYMENTS=mollie');
    if (!/^(live|test)_\w+$/.test(config.MOLLIE_API_KEY)) throw new ConfigError('MOLLIE_API_KEY', 'must be a Mollie API key (live_… or test_…)');
  }
  if (config.SVC_CAPTCHA_SECRET && !config.SVC_CAPTCHA_VERIFY_URL) {
    throw new ConfigError('SVC_CAPTCHA_VERIFY_URL', 'is required when SVC_CAPTCHA_SECRET is set');
  }
  if (config.SVC_CAPTCHA_PROVIDER && !config.SVC_CAPTCHA_SITE_KEY) {
    throw new ConfigError('SVC_CAPTCHA_SITE_KEY', 'is required when SVC_CAPTCHA_PROVIDER is set');
  }
  if (config.SVC_SMTP_URL && !config.SVC_MAIL_FROM) throw new ConfigError('SVC_MAIL_FROM', 'is required when SVC_SMTP_URL is set');
  // Unset, it follows the port, so `PORT=9000 npm start` hands out links that work.
  return { ...config, SVC_PUBLIC_URL: (config.SVC_PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '') };
}

/** Seconds between attempts of a webhook message, from SVC_WEBHOOK_RETRY_SCHEDULE. */
/** Jitter applied to each retry delay of a webhook or a mail: ±10%. */
export const RETRY_JITTER = 0.1;

export function retrySchedule(config: Config): number[] {
  return config.SVC_WEBHOOK_RETRY_SCHEDULE.split(',').map(Number);
}

/** Whether customer mails are sent (docs/contract/notifications.md): SMTP and a From address are both configured. */
export function mailEnabled(config: Pick<Config, 'SVC_SMTP_URL' | 'SVC_MAIL_FROM'>): boolean {
  return Boolean(config.SVC_SMTP_URL && config.SVC_MAIL_FROM);
}
