/**
 * `npm run plugin:pot`: writes plugins/wordpress/svc-booking/languages/svc-booking.pot from the plugin's PHP and
 * JavaScript with xgettext (Debian's gettext; WordPress's own wp-cli is not needed). `--check` exits 1 when the
 * committed file is out of date (the creation date aside).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PLUGIN_SOURCE, pluginFiles } from './plugin-zip.ts';

export const POT = join(PLUGIN_SOURCE, 'languages', 'svc-booking.pot');
const KEYWORDS = ['__', '_e', 'esc_html__', 'esc_html_e', 'esc_attr__', 'esc_attr_e', '_x:1,2c', 'esc_html_x:1,2c', 'esc_attr_x:1,2c', '_n:1,2', '_nx:1,2,4c'];

async function xgettext(language: 'PHP' | 'JavaScript', files: string[], join_existing: boolean, output: string): Promise<void> {
  if (files.length === 0) return;
  const args = [
    'xgettext',
    `--language=${language}`,
    '--from-code=UTF-8',
    '--add-comments=translators:',
    '--sort-by-file',
    '--package-name=svc Booking',
    '--package-version=0.1.0',
    '--msgid-bugs-address=https://github.com/svc-booking/svc/issues',
    ...KEYWORDS.map((keyword) => `--keyword=${keyword}`),
    '-o',
    output,
    ...(join_existing ? ['--join-existing'] : []),
    ...files,
  ];
  const child = Bun.spawn({ cmd: args, cwd: PLUGIN_SOURCE, stdout: 'pipe', stderr: 'pipe' });
  const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`xgettext failed: ${stderr}`);
}

/** The .pot text for the plugin as it is now. */
export async function generatePot(): Promise<string> {
  const files = pluginFiles();
  const output = join(PLUGIN_SOURCE, 'languages', '.svc-booking.pot.tmp');
  try {
    await xgettext(
      'PHP',
      files.filter((file) => file.endsWith('.php')),
      false,
      output,
    );
    await xgettext(
      'JavaScript',
      files.filter((file) => file.endsWith('.js')),
      true,
      output,
    );
    return readFileSync(output, 'utf8')
      .replace('# SOME DESCRIPTIVE TITLE.', '# svc Booking (WordPress plugin)')
      .replace("# Copyright (C) YEAR THE PACKAGE'S COPYRIGHT HOLDER", '# This file is distributed under the GPL-2.0-or-later license.')
      .replace('# This file is distributed under the same license as the svc Booking package.\n', '')
      .replace('# FIRST AUTHOR <EMAIL@ADDRESS>, YEAR.\n#\n#, fuzzy\n', '')
      .replace('"Content-Type: text/plain; charset=CHARSET\\n"', '"Content-Type: text/plain; charset=UTF-8\\n"')
      .replace(/"Language: \\n"\n/, '"X-Domain: svc-booking\\n"\n');
  } finally {
    Bun.spawnSync({ cmd: ['rm', '-f', output] });
  }
}

/** The text without the lines that change on every run. */
export const withoutDates = (pot: string) => pot.replace(/^"POT-Creation-Date: .*\n/m, '');

if (import.meta.main) {
  const pot = await generatePot();
  if (process.argv.includes('--check')) {
    if (withoutDates(readFileSync(POT, 'utf8')) !== withoutDates(pot)) {
      console.error(`${POT} is out of date: run npm run plugin:pot`);
      process.exit(1);
    }
  } else {
    writeFileSync(POT, pot);
    console.log(`wrote ${POT}`);
  }
}
