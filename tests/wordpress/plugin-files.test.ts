import { describe, expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { generatePot, POT, withoutDates } from '../../scripts/plugin-pot.ts';
import { buildPluginZip, PLUGIN_SOURCE, pluginFiles } from '../../scripts/plugin-zip.ts';

const ROOT = join(import.meta.dir, '..', '..');
const CHECKER = join(ROOT, 'scripts', 'wordpress-plugin-check.php');
const phpAvailable = existsSync('/usr/bin/php');
const describePhp = phpAvailable ? describe : describe.skip;
const phpFiles = () =>
  pluginFiles()
    .filter((file) => file.endsWith('.php'))
    .map((file) => join(PLUGIN_SOURCE, file));

function php(args: string[]): { code: number; out: string } {
  const result = Bun.spawnSync({ cmd: ['php', ...args], stdout: 'pipe', stderr: 'pipe' });
  return { code: result.exitCode, out: `${result.stdout.toString()}${result.stderr.toString()}` };
}

describe('WordPress plugin files', () => {
  test('the plugin has the shape of section 13: main file, one class per concern, readme, block, languages, uninstall', () => {
    expect(pluginFiles()).toEqual([
      'assets/panel-page.css',
      'assets/panel-page.js',
      'blocks/booking/block.json',
      'blocks/booking/editor.asset.php',
      'blocks/booking/editor.js',
      'includes/class-svc-booking-client.php',
      'includes/class-svc-booking-notices.php',
      'includes/class-svc-booking-options.php',
      'includes/class-svc-booking-panel-page.php',
      'includes/class-svc-booking-plugin.php',
      'includes/class-svc-booking-rest.php',
      'includes/class-svc-booking-settings-page.php',
      'includes/class-svc-booking-widget.php',
      'languages/svc-booking.pot',
      'readme.txt',
      'svc-booking.php',
      'uninstall.php',
    ]);
  });

  test('readme.txt is in WordPress.org format with the headers and sections the directory reads', () => {
    const readme = readFileSync(join(PLUGIN_SOURCE, 'readme.txt'), 'utf8');
    expect(readme.split('\n')[0]).toBe('=== svc Booking ===');
    for (const header of ['Requires at least: 6.1', 'Requires PHP: 8.1', 'Stable tag: 0.1.0', 'License: GPL-2.0-or-later', 'Tested up to: '])
      expect(readme).toContain(header);
    for (const section of ['Description', 'Installation', 'Frequently Asked Questions', 'Screenshots', 'Changelog'])
      expect(readme).toContain(`== ${section} ==`);
    const main = readFileSync(join(PLUGIN_SOURCE, 'svc-booking.php'), 'utf8');
    expect(main).toContain('Text Domain:       svc-booking');
    expect(main).toContain('Requires at least: 6.1');
    expect(main).toContain('Requires PHP:      8.1');
    expect(main).toContain('License:           GPL-2.0-or-later');
    // The stable tag, the plugin header's version and the block's version agree.
    expect(main).toContain('Version:           0.1.0');
    expect(JSON.parse(readFileSync(join(PLUGIN_SOURCE, 'blocks/booking/block.json'), 'utf8')).version).toBe('0.1.0');
  });

  test('the browser scripts are plain JavaScript that parses (no build step)', () => {
    for (const file of pluginFiles().filter((name) => name.endsWith('.js'))) {
      expect(() => new Function(readFileSync(join(PLUGIN_SOURCE, file), 'utf8')), file).not.toThrow();
    }
  });

  test('npm run plugin:zip holds exactly the plugin files under svc-booking/, byte for byte', () => {
    const target = join(ROOT, 'dist', 'svc-booking.zip');
    const files = buildPluginZip(target);
    const entries = unzipSync(new Uint8Array(readFileSync(target)));
    expect(Object.keys(entries).sort()).toEqual(files.map((file) => `svc-booking/${file}`).sort());
    for (const file of files) expect(Buffer.from(entries[`svc-booking/${file}`]!).equals(readFileSync(join(PLUGIN_SOURCE, file)))).toBe(true);
  });
});

describePhp('WordPress plugin PHP', () => {
  test('every PHP file passes php -l', () => {
    const files = [...phpFiles(), CHECKER];
    expect(files.length).toBeGreaterThan(8);
    for (const file of files) expect(php(['-l', file])).toEqual({ code: 0, out: `No syntax errors detected in ${file}\n` });
  });

  test('the static check finds no unescaped output, unsanitised input or unguarded form handler in the plugin', () => {
    expect(php([CHECKER, ...phpFiles()])).toEqual({ code: 0, out: '' });
  });

  test('every call to svc goes through wp_safe_remote_request (WordPress refuses private and loopback addresses there)', () => {
    const calls = phpFiles().flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\b(wp_(?:safe_)?remote_(?:request|get|post|head))\s*\(/g)].map(
        (match) => `${file.slice(PLUGIN_SOURCE.length + 1)}: ${match[1]}`,
      ),
    );
    expect(calls).toEqual(['includes/class-svc-booking-client.php: wp_safe_remote_request']);
  });

  // A multisite network is not installed for the tests (Debian's WordPress on php -S and one MariaDB would need
  // a second network install with its own domain handling): uninstall.php runs here on a stand-in for one.
  test("uninstalling on multisite revokes every connected site's link with its own credential and removes the options of every site", () => {
    const result = php([join(import.meta.dir, 'fixtures', 'multisite-uninstall.php'), PLUGIN_SOURCE]);
    expect(result.code).toBe(0);
    const { sites, requests, site, flushed } = JSON.parse(result.out);
    // only what is not the plugin's stays, on every site, including the one whose svc could not be reached
    expect(sites).toEqual({ 1: { blogname: 'Main' }, 2: { blogname: 'Not connected' }, 3: { blogname: 'Shop' }, 4: { blogname: 'Gone' } });
    const revoke = (on: number, server: string, credential: string) => ({
      site: on,
      method: 'DELETE',
      url: `${server}/api/integrations/wordpress/panel/origin`,
      authorization: `SvcHost ${credential}`,
      timeout: 10,
    });
    expect(requests).toEqual([
      revoke(1, 'https://svc.example.com', 'svc_host_main'),
      revoke(3, 'https://other.example.org/svc', 'svc_host_shop'),
      revoke(4, 'https://unreachable.example.net', 'svc_host_gone'),
    ]);
    // back on the site it started from
    expect(site).toBe(1);
    expect(flushed).toBe(true);
  });

  test('the static check fails on unescaped output, unsanitised input, an unguarded handler and a missing ABSPATH guard', () => {
    const fixture = join(import.meta.dir, 'fixtures', 'unsafe-output.php');
    const result = php([CHECKER, fixture]);
    expect(result.code).toBe(1);
    expect(
      result.out
        .trim()
        .split('\n')
        .map((line) => line.replace(`${fixture}:`, '')),
    ).toEqual([
      '5: $_POST is read without sanitising (wrap it in sanitize_text_field( wp_unslash( … ) ) or similar)',
      '6: $name is output without escaping (esc_html, esc_attr, esc_url, …)',
      '7: get_option is output without escaping (esc_html, esc_attr, esc_url, …)',
      '8: $label is output without escaping (esc_html, esc_attr, esc_url, …)',
      '9: $raw is output without escaping (esc_html, esc_attr, esc_url, …)',
      '4: bad_handler() reads $_POST without a nonce and capability check',
    ]);
    const unguarded = join(import.meta.dir, 'fixtures', 'no-abspath-guard.php');
    expect(php([CHECKER, unguarded]).out).toBe(`${unguarded}:1: the file must start with defined( 'ABSPATH' ) || exit;\n`);
  });
});

(existsSync('/usr/bin/xgettext') ? test : test.skip)('languages/svc-booking.pot is up to date with the strings of the code (npm run plugin:pot)', async () => {
  const pot = await generatePot();
  expect(pot).toContain('msgid "Pairing code"');
  expect(pot).toContain("#. translators: 1: workspace slug, 2: svc server address, 3: this site's origin");
  expect(withoutDates(readFileSync(POT, 'utf8'))).toBe(withoutDates(pot));
});
