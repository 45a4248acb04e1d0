import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Subprocess } from 'bun';
import { freePort, runCli, startServe, type ServeProcess } from '../support/process.ts';

/**
 * A real WordPress (Debian's `wordpress` package) on MariaDB, served by `php -S`, with the svc-booking plugin
 * installed from the zip `npm run plugin:zip` builds, beside a real `svc serve`. Everything lives in one temp
 * directory and is removed by `stop()`. Used by tests/wordpress and by `bun scripts/wordpress-env.ts` by hand.
 */

export const WORDPRESS_SOURCE = '/usr/share/wordpress';
const ROOT = join(import.meta.dir, '..', '..');
export const PLUGIN_ZIP = join(ROOT, 'dist', 'svc-booking.zip');

/** WordPress is served on 127.0.0.2 so its origin differs from svc's (127.0.0.1) by host, as on a real site. */
export const WP_HOST = '127.0.0.2';
export const ADMIN = { login: 'admin', password: 'admin-password-1', email: 'admin@example.org' };
export const SUBSCRIBER = { login: 'subscriber', password: 'subscriber-password-1', email: 'subscriber@example.org' };
export const SLUG = 'acme';

/** What the WordPress suite needs on the machine; `.ci/run` installs it. */
export function wordpressAvailable(): boolean {
  return ['/usr/bin/php', '/usr/sbin/mariadbd', '/usr/bin/mariadb-install-db', join(WORDPRESS_SOURCE, 'wp-settings.php')].every((path) => existsSync(path));
}

export interface WordPressEnv {
  /** http://127.0.0.2:port (home_url) */
  wpUrl: string;
  /** scheme://host:port of the site: what connecting links */
  wpOrigin: string;
  svc: ServeProcess;
  /** svc's address (SVC_PUBLIC_URL) */
  appUrl: string;
  apiKey: string;
  /** env for `svc` CLI runs against the same database */
  svcEnv: Record<string, string>;
  /** runs PHP inside WordPress (wp-load.php loaded) and returns what the code `return`s, JSON-decoded */
  php<T = unknown>(code: string): Promise<T>;
  /** a fresh single-use pairing code from the CLI */
  pairingCode(): Promise<string>;
  /** WordPress's debug.log so far (PHP notices, warnings, errors) */
  debugLog(): string;
  /**
   * Whether wp-config.php defines SVC_BOOKING_ALLOW_PRIVATE_SERVER (it does from the start: svc runs on loopback
   * here). Takes effect from the next request.
   */
  allowPrivateServer(allowed: boolean): void;
  stop(): Promise<void>;
}

async function run(cmd: string[], options: { cwd?: string; stdin?: string } = {}): Promise<string> {
  const child = Bun.spawn({
    cmd,
    cwd: options.cwd,
    stdin: options.stdin === undefined ? 'ignore' : new TextEncoder().encode(options.stdin),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`${cmd.join(' ')} exited with ${code}:\n${stdout}\n${stderr}`);
  return stdout;
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not ready within ${timeoutMs} ms`);
    await Bun.sleep(50);
  }
}

async function startMariaDb(dir: string): Promise<{ port: number; child: Subprocess }> {
  const data = join(dir, 'mysql');
  const user = process.getuid?.() === 0 ? ['--user=root'] : [];
  await run(['mariadb-install-db', '--no-defaults', `--datadir=${data}`, '--auth-root-authentication-method=normal', '--skip-test-db', ...user]);
  const port = freePort();
  const child = Bun.spawn({
    cmd: [
      'mariadbd',
      '--no-defaults',
      `--datadir=${data}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      `--socket=${join(dir, 'mysqld.sock')}`,
      `--pid-file=${join(dir, 'mysqld.pid')}`,
      '--skip-log-bin',
      '--innodb-buffer-pool-size=32M',
      '--skip-name-resolve',
      ...user,
    ],
    stdin: 'ignore',
    stdout: 'ignore',
    stderr: Bun.file(join(dir, 'mysqld.log')),
  });
  const ping = ['php', '-r', `exit(@mysqli_connect('127.0.0.1', 'root', '', '', ${port}) ? 0 : 1);`];
  await waitFor('MariaDB', async () => {
    if (child.exitCode !== null) throw new Error(`mariadbd exited with ${child.exitCode}; see ${join(dir, 'mysqld.log')}`);
    return (await Bun.spawn({ cmd: ping, stdout: 'ignore', stderr: 'ignore' }).exited) === 0;
  });
  return { port, child };
}

/** Unpacks dist/svc-booking.zip into `target` (wp-content/plugins), as WordPress's plugin upload does. */
async function installPluginZip(target: string): Promise<void> {
  const { unzipSync } = await import('fflate');
  const files = unzipSync(new Uint8Array(await Bun.file(PLUGIN_ZIP).arrayBuffer()));
  for (const [name, bytes] of Object.entries(files)) {
    if (name.endsWith('/')) continue;
    await Bun.write(join(target, name), bytes);
  }
}

export async function startWordPressEnv(): Promise<WordPressEnv> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-wordpress-'));
  const stops: (() => Promise<unknown> | unknown)[] = [() => rmSync(dir, { recursive: true, force: true })];
  const stop = async () => {
    for (const step of stops.reverse()) await Promise.resolve(step()).catch(() => undefined);
  };
  try {
    // svc: a real server process on its own libSQL file, a workspace made by the CLI.
    const svcPort = freePort();
    const appUrl = `http://127.0.0.1:${svcPort}`;
    const svcEnv = {
      DATABASE_URL: `file:${join(dir, 'svc.db')}`,
      SVC_PUBLIC_URL: appUrl,
      SVC_SECRET: 'wordpress-test-secret-0123456789-0123456789',
      SVC_DEMO: 'false',
      LOG_LEVEL: 'warn',
    };
    const created = await runCli(['workspace', 'create', '--slug', SLUG, '--name', 'Acme Studio', '--timezone', 'Europe/Berlin', '--json'], svcEnv);
    if (created.code !== 0) throw new Error(`svc workspace create: ${created.stderr}`);
    const apiKey = (JSON.parse(created.stdout) as { apiKey: string }).apiKey;
    const svcStarting = startServe({ env: svcEnv, port: svcPort });

    // MariaDB and the WordPress files, side by side with svc's start.
    const [db] = await Promise.all([
      startMariaDb(dir),
      // -L: Debian links some files (underscore.js, getID3, …) relative to /usr/share; the copy needs the files
      run(['cp', '-rL', WORDPRESS_SOURCE, join(dir, 'wordpress')]),
    ]);
    stops.push(() => {
      db.child.kill('SIGTERM');
      return db.child.exited;
    });
    const svc = await svcStarting;
    stops.push(() => svc.stop());

    const webroot = join(dir, 'wordpress');
    const wpPort = freePort();
    const wpUrl = `http://${WP_HOST}:${wpPort}`;
    rmSync(join(webroot, 'wp-content', 'languages'), { recursive: true, force: true });
    rmSync(join(webroot, 'wp-content', 'plugins', 'akismet'), { recursive: true, force: true });
    writeFileSync(
      join(webroot, 'wp-config.php'),
      `<?php
define( 'DB_NAME', 'wordpress' );
define( 'DB_USER', 'root' );
define( 'DB_PASSWORD', '' );
define( 'DB_HOST', '127.0.0.1:${db.port}' );
define( 'DB_CHARSET', 'utf8mb4' );
define( 'DB_COLLATE', '' );
$table_prefix = 'wp_';
define( 'WP_HOME', '${wpUrl}' );
define( 'WP_SITEURL', '${wpUrl}' );
define( 'AUTH_KEY', 'test-auth-key' ); define( 'SECURE_AUTH_KEY', 'test-secure-auth-key' );
define( 'LOGGED_IN_KEY', 'test-logged-in-key' ); define( 'NONCE_KEY', 'test-nonce-key' );
define( 'AUTH_SALT', 'test-auth-salt' ); define( 'SECURE_AUTH_SALT', 'test-secure-auth-salt' );
define( 'LOGGED_IN_SALT', 'test-logged-in-salt' ); define( 'NONCE_SALT', 'test-nonce-salt' );
define( 'WP_DEBUG', true );
define( 'WP_DEBUG_LOG', '${join(dir, 'debug.log')}' );
define( 'WP_DEBUG_DISPLAY', false );
define( 'DISABLE_WP_CRON', true );
define( 'AUTOMATIC_UPDATER_DISABLED', true );
define( 'WP_AUTO_UPDATE_CORE', false );
// No network here but svc: WordPress must not wait on wordpress.org.
define( 'WP_HTTP_BLOCK_EXTERNAL', true );
define( 'WP_ACCESSIBLE_HOSTS', '127.0.0.1' );
// svc listens on loopback: the plugin calls a private address only with this (allowPrivateServer(false) drops it).
if ( ! file_exists( '${join(dir, 'refuse-private-server')}' ) ) { define( 'SVC_BOOKING_ALLOW_PRIVATE_SERVER', true ); }
define( 'FS_METHOD', 'direct' );
if ( ! defined( 'ABSPATH' ) ) { define( 'ABSPATH', __DIR__ . '/' ); }
require_once ABSPATH . 'wp-settings.php';
`,
    );
    writeFileSync(
      join(dir, 'router.php'),
      `<?php
// php -S router: real files as they are, everything else to WordPress's front controller (pretty permalinks).
$path = urldecode( parse_url( $_SERVER['REQUEST_URI'], PHP_URL_PATH ) );
$file = $_SERVER['DOCUMENT_ROOT'] . $path;
if ( is_file( $file ) || ( is_dir( $file ) && is_file( rtrim( $file, '/' ) . '/index.php' ) ) ) {
	return false;
}
$_SERVER['SCRIPT_NAME'] = '/index.php';
$_SERVER['SCRIPT_FILENAME'] = $_SERVER['DOCUMENT_ROOT'] . '/index.php';
require $_SERVER['DOCUMENT_ROOT'] . '/index.php';
`,
    );
    // Runs PHP read from stdin inside WordPress and prints what it returns as JSON.
    writeFileSync(
      join(dir, 'wp-eval.php'),
      `<?php
$_SERVER['HTTP_HOST'] = '${WP_HOST}:${wpPort}';
$_SERVER['SERVER_NAME'] = '${WP_HOST}';
$_SERVER['SERVER_PORT'] = '${wpPort}';
$_SERVER['REQUEST_URI'] = '/';
$_SERVER['REQUEST_METHOD'] = 'GET';
if ( getenv( 'SVC_WP_INSTALLING' ) ) { define( 'WP_INSTALLING', true ); }
require '${webroot}/wp-load.php';
$svc_result = eval( stream_get_contents( STDIN ) );
echo "\\n--svc-result--\\n" . wp_json_encode( $svc_result );
`,
    );

    const php = async <T>(code: string, env: Record<string, string> = {}): Promise<T> => {
      const child = Bun.spawn({
        cmd: ['php', join(dir, 'wp-eval.php')],
        env: { ...process.env, ...env },
        stdin: new TextEncoder().encode(code),
        stdout: 'pipe',
        stderr: 'pipe',
      });
      const [stdout, stderr, exit] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
      const marker = stdout.lastIndexOf('\n--svc-result--\n');
      if (exit !== 0 || marker < 0) throw new Error(`PHP in WordPress failed (${exit}):\n${code}\n${stdout}\n${stderr}`);
      return JSON.parse(stdout.slice(marker + '\n--svc-result--\n'.length)) as T;
    };

    await run([
      'php',
      '-r',
      `$db = mysqli_connect('127.0.0.1', 'root', '', '', ${db.port}); mysqli_query($db, 'CREATE DATABASE wordpress CHARACTER SET utf8mb4');`,
    ]);
    await php(
      `
      require_once ABSPATH . 'wp-admin/includes/upgrade.php';
      wp_install( 'Acme Studio', '${ADMIN.login}', '${ADMIN.email}', false, '', '${ADMIN.password}' );
      wp_insert_user( array( 'user_login' => '${SUBSCRIBER.login}', 'user_pass' => '${SUBSCRIBER.password}', 'user_email' => '${SUBSCRIBER.email}', 'role' => 'subscriber' ) );
      update_option( 'permalink_structure', '/%postname%/' );
      return true;`,
      { SVC_WP_INSTALLING: '1' },
    );
    // The plugin as WordPress installs it: the contents of the zip.
    await installPluginZip(join(webroot, 'wp-content', 'plugins'));
    await php(`
      require_once ABSPATH . 'wp-admin/includes/plugin.php';
      flush_rewrite_rules();
      $result = activate_plugin( 'svc-booking/svc-booking.php' );
      if ( is_wp_error( $result ) ) { throw new Exception( $result->get_error_message() ); }
      return true;`);

    const server = Bun.spawn({
      cmd: ['php', '-S', `${WP_HOST}:${wpPort}`, '-t', webroot, join(dir, 'router.php')],
      // Several workers: `php -S` alone answers one request at a time, and the browser loads a page's scripts in
      // parallel, while a request WordPress makes to itself (REST, loopback) would wait for the one in progress.
      // PHP 8.2's php -S honours it (four worker processes answer four slow requests at once). WordPress makes no
      // request to itself here: with DISABLE_WP_CRON no cron spawn, and a log of every HTTP request it made over
      // whole runs of plugin.browser.test.ts showed only the plugin's calls to svc and the update and browser
      // checks to api.wordpress.org, which WP_HTTP_BLOCK_EXTERNAL refuses without a connection.
      env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4' },
      cwd: webroot,
      stdin: 'ignore',
      stdout: 'ignore',
      stderr: Bun.file(join(dir, 'php-server.log')),
      // its own process group: the workers are its children, and stop() ends the whole group
      detached: true,
    });
    stops.push(() => {
      process.kill(-server.pid, 'SIGTERM');
      return server.exited;
    });
    await waitFor('WordPress', async () => (await fetch(`${wpUrl}/wp-login.php`)).status === 200);

    return {
      wpUrl,
      wpOrigin: wpUrl,
      svc,
      appUrl,
      apiKey,
      svcEnv,
      php: (code) => php(code),
      async pairingCode() {
        const result = await runCli(['pairing-code', 'create', '--workspace', SLUG, '--json'], svcEnv);
        if (result.code !== 0) throw new Error(`svc pairing-code create: ${result.stderr}`);
        return (JSON.parse(result.stdout) as { pairingCode: string }).pairingCode;
      },
      debugLog: () => (existsSync(join(dir, 'debug.log')) ? readFileSync(join(dir, 'debug.log'), 'utf8') : ''),
      allowPrivateServer(allowed) {
        const marker = join(dir, 'refuse-private-server');
        if (allowed) rmSync(marker, { force: true });
        else writeFileSync(marker, '');
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Builds dist/svc-booking.zip (npm run plugin:zip) from the plugin as it is now. */
export async function ensurePluginZip(): Promise<void> {
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  const { buildPluginZip } = await import('../../scripts/plugin-zip.ts');
  buildPluginZip();
}
