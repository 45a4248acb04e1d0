import { linkSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { type Config, ConfigError } from './config.ts';
import type { Logger } from './logger.ts';
import { randomToken } from '../core/secrets.ts';
import type { SettingsStore } from '../ports/storage/index.ts';

/** The setting where svc before 0.2 kept a generated SVC_SECRET, in clear; moved out at the next start. */
export const LEGACY_SECRET_SETTING = 'svc_secret';

/**
 * Where the server secret comes from (docs/contract/operations.md, README "Configuration"):
 * - `SVC_SECRET` when set;
 * - with an embedded libSQL file and no SVC_SECRET, a file beside the database (`./data/svc.db` →
 *   `./data/svc.secret`, mode 0600), generated on the first start: a copy of the database alone opens nothing;
 * - with an in-memory database, a secret of the process's own (it dies with the data it protects);
 * - PostgreSQL or a remote libSQL server: SVC_SECRET is required. The database is reached over the network,
 *   usually by several instances, and the secret must not travel with it.
 */
export type SecretSource = { kind: 'configured'; secret: string } | { kind: 'file'; path: string } | { kind: 'memory' };

/** Which rule applies to `config`; throws ConfigError naming SVC_SECRET when it is required and unset. */
export function secretSource(config: Pick<Config, 'SVC_SECRET' | 'DATABASE_URL'>): SecretSource {
  if (config.SVC_SECRET) return { kind: 'configured', secret: config.SVC_SECRET };
  const url = config.DATABASE_URL;
  if (/^postgres(ql)?:\/\//.test(url)) {
    throw new ConfigError(
      'SVC_SECRET',
      `is required with a PostgreSQL DATABASE_URL: every instance must use the same one, e.g. from "openssl rand -base64 48" (an install that generated one keeps it in the table settings, key ${LEGACY_SECRET_SETTING}: use that value)`,
    );
  }
  if (!url.startsWith('file:'))
    throw new ConfigError(
      'SVC_SECRET',
      'is required with a remote libSQL DATABASE_URL: every instance must use the same one, e.g. from "openssl rand -base64 48"',
    );
  const path = url.slice('file:'.length).split('?')[0] ?? '';
  if (path === '' || path === ':memory:') return { kind: 'memory' };
  const database = resolve(path);
  return { kind: 'file', path: join(dirname(database), `${basename(database, extname(database))}.secret`) };
}

const MIN_SECRET_LENGTH = 32;

function readSecretFile(path: string): string | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const secret = text.trim();
  if (secret.length < MIN_SECRET_LENGTH) throw new ConfigError('SVC_SECRET', `file ${path} must hold a secret of at least ${MIN_SECRET_LENGTH} characters`);
  return secret;
}

/**
 * Creates `path` (mode 0600) holding `secret` unless it exists, and returns what the file holds. Written to a
 * temporary file first and linked into place: another process starting at the same moment either links first
 * (and both use its secret) or finds the whole file, never a half-written one.
 */
function createSecretFile(path: string, secret: string): string {
  const temporary = `${path}.${randomToken('', 6)}.tmp`;
  writeFileSync(temporary, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temporary, path);
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readSecretFile(path) ?? secret;
  } finally {
    unlinkSync(temporary);
  }
}

/**
 * The server secret under the rule of `secretSource`, creating the file on the first start. A secret an older
 * svc stored in the database is moved into the file (so webhook secrets sealed with it still open) and then
 * deleted from the database; with SVC_SECRET set to the same value it is just deleted.
 */
export async function resolveServerSecret(storage: SettingsStore, config: Pick<Config, 'SVC_SECRET' | 'DATABASE_URL'>, logger: Logger): Promise<string> {
  const source = secretSource(config);
  const stored = await storage.getSetting(LEGACY_SECRET_SETTING);
  let secret: string;
  switch (source.kind) {
    case 'memory':
      return randomToken('', 48);
    case 'configured':
      secret = source.secret;
      break;
    case 'file': {
      secret = readSecretFile(source.path) ?? createSecretFile(source.path, stored ?? randomToken('', 48));
      if ((statSync(source.path).mode & 0o077) !== 0) logger.warn('the secret file can be read by other users: chmod 600 it', { path: source.path });
      break;
    }
  }
  if (stored === secret) {
    await storage.deleteSetting(LEGACY_SECRET_SETTING, stored);
    logger.info('moved the generated secret out of the database', source.kind === 'file' ? { path: source.path } : { to: 'SVC_SECRET' });
  } else if (stored !== null) {
    logger.warn(
      `the database still holds another secret in settings.${LEGACY_SECRET_SETTING}: webhook secrets sealed with it do not open; set SVC_SECRET to it, or delete it`,
    );
  }
  return secret;
}
