import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { libsqlAddon, RELEASE_TARGETS, ROOT } from '../../scripts/compile-binary.ts';
import { runCli, startServe, type Runtime, type ServeProcess } from '../support/process.ts';
import { startReceiver, verify, workdayAt, type Receiver } from '../webhooks/support.ts';
import { run } from './docker-engine.ts';
import { acmeApi, releaseBuild, type ReleaseBuild } from './release-build.ts';

/*
 * `npm run release`: every platform's binary is an executable of that platform's format and architecture, with
 * its platform's libSQL addon inside; SHA256SUMS matches; and the linux-x64 binary, run from an empty directory,
 * serves a booking, delivers its webhook, serves the widget and the panel from inside itself and stops on SIGTERM.
 */

const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

let release: ReleaseBuild;
beforeAll(async () => {
  release = await releaseBuild();
}, 600_000);
afterAll(() => release?.remove());

/** What a binary's first bytes say it is. */
function executableKind(header: Buffer): string {
  if (header.readUInt32BE(0) === 0x7f454c46) {
    // ELF: 64-bit (EI_CLASS 2), little-endian (EI_DATA 1); e_machine at 18
    const machine =
      new Map([
        [0x3e, 'x86-64'],
        [0xb7, 'aarch64'],
      ]).get(header.readUInt16LE(18)) ?? `machine 0x${header.readUInt16LE(18).toString(16)}`;
    return `ELF${header[4] === 2 ? '64' : '32'} ${header[5] === 1 ? 'LE' : 'BE'} ${machine}`;
  }
  if (header.readUInt32LE(0) === 0xfeedfacf) {
    // Mach-O 64-bit, little-endian; cputype at 4
    const cpu =
      new Map([
        [0x01000007, 'x86_64'],
        [0x0100000c, 'arm64'],
      ]).get(header.readUInt32LE(4)) ?? `cputype 0x${header.readUInt32LE(4).toString(16)}`;
    return `Mach-O64 ${cpu}`;
  }
  if (header.toString('latin1', 0, 2) === 'MZ') {
    // PE: the PE header's offset at 0x3c; then "PE\0\0", the machine, and the optional header's magic (0x20b: PE32+)
    const pe = header.readUInt32LE(0x3c);
    if (header.toString('latin1', pe, pe + 4) !== 'PE\0\0') return 'MZ without a PE header';
    const machine =
      new Map([
        [0x8664, 'AMD64'],
        [0xaa64, 'ARM64'],
      ]).get(header.readUInt16LE(pe + 4)) ?? `machine 0x${header.readUInt16LE(pe + 4).toString(16)}`;
    return `PE${header.readUInt16LE(pe + 24) === 0x20b ? '32+' : '32'} ${machine}`;
  }
  return `unknown (${header.subarray(0, 4).toString('hex')})`;
}

const EXPECTED_KIND: Record<string, string> = {
  'svc-linux-x64': 'ELF64 LE x86-64',
  'svc-linux-arm64': 'ELF64 LE aarch64',
  'svc-darwin-x64': 'Mach-O64 x86_64',
  'svc-darwin-arm64': 'Mach-O64 arm64',
  'svc-windows-x64.exe': 'PE32+ AMD64',
};

describe('npm run release', () => {
  test('dist/release holds the five binaries and SHA256SUMS, nothing else (no source maps)', () => {
    expect(readdirSync(release.dir).sort()).toEqual([...RELEASE_TARGETS.map((target) => target.file), 'SHA256SUMS'].sort());
  });

  for (const target of RELEASE_TARGETS) {
    test(`${target.file} is a ${EXPECTED_KIND[target.file]} executable with the ${target.libsql} libSQL addon inside`, () => {
      const binary = readFileSync(join(release.dir, target.file));
      expect(executableKind(binary.subarray(0, 4096))).toBe(EXPECTED_KIND[target.file]!);
      // A stretch from the middle of the addon's code: found only if this platform's addon was embedded.
      const addon = readFileSync(libsqlAddon(target.libsql));
      const middle = Math.floor(addon.length / 2);
      expect(binary.includes(addon.subarray(middle, middle + 256))).toBe(true);
      // The commit `--version` prints is in every binary, not only the one this machine can run.
      expect(binary.includes(JSON.stringify(release.commit))).toBe(true);
    });
  }

  test('SHA256SUMS has one line per binary, "<sha-256>  <file>", as sha256sum -c reads it, and every sum matches', () => {
    const lines = readFileSync(join(release.dir, 'SHA256SUMS'), 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    const listed = lines.map((line) => {
      const match = /^([0-9a-f]{64}) {2}(\S+)$/.exec(line);
      expect(match).not.toBeNull();
      return { sum: match![1]!, file: match![2]! };
    });
    expect(listed.map((entry) => entry.file).sort()).toEqual(RELEASE_TARGETS.map((target) => target.file).sort());
    for (const { sum, file } of listed) {
      expect({
        file,
        sum: createHash('sha256')
          .update(readFileSync(join(release.dir, file)))
          .digest('hex'),
      }).toEqual({ file, sum });
    }
  });

  test('sha256sum -c SHA256SUMS accepts the file (where coreutils is installed)', async () => {
    if (!Bun.which('sha256sum')) {
      console.log('skipped: no sha256sum on this machine');
      return;
    }
    const result = await run(['sha256sum', '-c', 'SHA256SUMS'], { cwd: release.dir });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.trim().split('\n').sort()).toEqual(RELEASE_TARGETS.map((target) => `${target.file}: OK`).sort());
  });
});

const onLinuxX64 = process.platform === 'linux' && process.arch === 'x64';
if (!onLinuxX64) console.log(`svc-linux-x64 smoke test skipped: this machine is ${process.platform}-${process.arch}`);

(onLinuxX64 ? describe : describe.skip)('svc-linux-x64 from an empty directory', () => {
  let dir: string;
  let binary: Runtime;
  let receiver: Receiver;
  let server: ServeProcess | undefined;
  let apiKey: string;
  const env = { SVC_WEBHOOK_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'info' };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-binary-'));
    binary = { binary: join(release.dir, 'svc-linux-x64') };
    receiver = startReceiver();
  });
  afterAll(async () => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    await server?.child.exited;
    await receiver?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const call = acmeApi(
    () => server!.url,
    () => apiKey,
  );

  test('--version prints the version from package.json and the commit it was built from', async () => {
    const result = await runCli(['--version'], {}, dir, binary);
    expect(result).toEqual({ code: 0, stdout: `svc ${version} (${release.commit})\n`, stderr: '' });
  });

  test('workspace create --json creates ./data/svc.db and prints the workspace and its key', async () => {
    const result = await runCli(['workspace', 'create', '--slug', 'acme', '--name', 'Acme Studio', '--timezone', 'Europe/Berlin', '--json'], {}, dir, binary);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    const created = JSON.parse(result.stdout) as { workspace: { slug: string }; apiKey: string };
    expect(created.workspace.slug).toBe('acme');
    apiKey = created.apiKey;
    expect(readdirSync(dir)).toEqual(['data']);
  });

  test('serve answers /healthz 200 and /readyz 200', async () => {
    server = await startServe({ env, runtime: binary, cwd: dir });
    expect(await (await fetch(`${server.url}/healthz`)).json()).toMatchObject({ success: true });
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });

  test('a booking through the API is stored and its booking.created webhook is delivered, signed', async () => {
    const hook = (await call('POST', '/webhooks', { url: receiver.url })).webhook;
    const provider = (await call('POST', '/providers', { name: 'Robin' })).provider;
    const service = (await call('POST', '/services', { name: 'Massage', duration: 30, price: 40, currency: 'EUR', providerIds: [provider.id] })).service;
    const { booking } = await call('POST', '/bookings', { serviceId: service.id, email: 'ada@example.com', date: workdayAt(Date.now(), '10:00') });
    expect(booking).toMatchObject({ serviceId: service.id, status: expect.any(String) });
    expect((await call('GET', `/bookings/${booking.id}`)).booking.id).toBe(booking.id);

    const [receipt] = await receiver.waitFor(1, 10_000);
    expect(verify(hook.secret, receipt!)).toMatchObject({ type: 'booking.created', data: { booking: { id: booking.id } } });
  });

  test('the widget script and the panel page (and its script) are served from inside the binary', async () => {
    const widget = await fetch(`${server!.url}/svc-widget.min.js`);
    expect({ status: widget.status, type: widget.headers.get('content-type') }).toEqual({ status: 200, type: 'application/javascript; charset=utf-8' });
    expect(await widget.text()).toContain('svc-booking');

    const panel = await fetch(`${server!.url}/admin`);
    expect(panel.status).toBe(200);
    const page = await panel.text();
    expect(page).toContain('<title>svc admin</title>');
    const script = /<script src="([^"]+)"/.exec(page)?.[1];
    expect(script).toBeDefined();
    const panelScript = await fetch(new URL(script!, server!.url));
    expect(panelScript.status).toBe(200);
    expect((await panelScript.text()).length).toBeGreaterThan(1000);

    expect((await fetch(`${server!.url}/book/demo`)).status).toBe(200);
  });

  test('SIGTERM stops it with exit code 0, leaving only ./data behind', async () => {
    expect(await server!.stop('SIGTERM')).toBe(0);
    expect(readdirSync(dir)).toEqual(['data']);
    expect(readdirSync(join(dir, 'data')).sort()).toContain('svc.db');
  });
});
