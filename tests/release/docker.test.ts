import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../scripts/compile-binary.ts';
import { freePort } from '../support/process.ts';
import { waitFor } from '../support/wait.ts';
import { workdayAt } from '../webhooks/support.ts';
import { check, dockerEngine, ensureBaseImage, run, type DockerEngine } from './docker-engine.ts';
import { acmeApi, releaseBuild, type ReleaseBuild } from './release-build.ts';

/*
 * The Dockerfile, built and run with a real Docker engine: non-root, data on the /data volume (kept across a new
 * container), a health check Docker reports healthy, SIGTERM (docker stop) answered with exit code 0, and a small
 * image. Where no engine can run, the tests are skipped and the reason printed.
 */

const BASE_IMAGE = 'debian:bookworm-slim';
const dockerArch = process.arch === 'arm64' ? 'arm64' : 'x64';
const id = `svc-test-${process.pid}`;
const image = `${id}:latest`;
const volume = `${id}-data`;

/** Why no container can run here (the tests are then skipped, saying so), or null. */
async function unavailable(engine: DockerEngine): Promise<string | null> {
  if (engine.unavailable) return engine.unavailable;
  try {
    console.log(`docker test: ${await ensureBaseImage(BASE_IMAGE, 'bookworm')}`);
  } catch (error) {
    return `no base image: ${(error as Error).message}`;
  }
  // An engine that answers may still be unable to start a container (no cgroups, no overlay file system, …).
  const probe = await run(['docker', 'run', '--rm', '--network', 'none', BASE_IMAGE, 'true'], { timeoutMs: 60_000 });
  return probe.code === 0 ? null : `the Docker engine answers but cannot run a container here: ${probe.stderr.trim()}`;
}

const engine: DockerEngine = await dockerEngine();
const skipped = await unavailable(engine);
if (skipped) {
  console.log(`SKIPPED docker tests: ${skipped}`);
  await engine.stop();
  // The reason in the test list too, where a summary of skipped tests shows it.
  test.skip(`the Docker image cannot be tested here: ${skipped.split('\n')[0]}`, () => {});
}

(skipped ? describe.skip : describe)('the Docker image', () => {
  let release: ReleaseBuild | undefined;
  let port: number;
  let url: string;
  let apiKey: string;
  let bookingId: string;
  const containers: string[] = [];

  beforeAll(async () => {
    release = await releaseBuild();
    // The build context is what .dockerignore lets through: the linux binaries under dist/release.
    const context = mkdtempSync(join(tmpdir(), 'svc-docker-context-'));
    try {
      mkdirSync(join(context, 'dist', 'release'), { recursive: true });
      copyFileSync(join(release.dir, `svc-linux-${dockerArch}`), join(context, 'dist', 'release', `svc-linux-${dockerArch}`));
      copyFileSync(join(ROOT, '.dockerignore'), join(context, '.dockerignore'));
      const started = performance.now();
      // DOCKER_BUILDKIT=0: the classic builder, which every engine has (BuildKit needs the buildx plugin).
      await check(['env', 'DOCKER_BUILDKIT=0', 'docker', 'build', '--quiet', '--network', 'none', '-t', image, '-f', join(ROOT, 'Dockerfile'), context], {
        timeoutMs: 300_000,
      });
      console.log(`docker test: built ${image} in ${Math.round(performance.now() - started)} ms`);
    } finally {
      rmSync(context, { recursive: true, force: true });
    }
  }, 900_000);

  afterAll(async () => {
    for (const container of containers) await run(['docker', 'rm', '-f', container]);
    await run(['docker', 'volume', 'rm', '-f', volume]);
    await run(['docker', 'rmi', '-f', image]);
    // the classic builder keeps the stage that picks the binary as an untagged image
    await run(['docker', 'image', 'prune', '-f', '--filter', 'label=svc.stage=binary']);
    release?.remove();
    await engine.stop();
  }, 60_000);

  /** Starts a container on the volume, health checked every second; resolves once /healthz answers 200 from outside. */
  async function start(): Promise<string> {
    port = freePort();
    url = `http://127.0.0.1:${port}`;
    const name = `${id}-${containers.length + 1}`;
    containers.push(name);
    // The host's network, svc on loopback: the test talks to 127.0.0.1 only, never across a bridge.
    await check([
      'docker',
      'run',
      '-d',
      '--name',
      name,
      '--network',
      'host',
      '-e',
      `PORT=${port}`,
      '-e',
      'HOST=127.0.0.1',
      '-v',
      `${volume}:/data`,
      '--health-interval',
      '1s',
      image,
    ]);
    await waitFor(
      async () => {
        const state = await check(['docker', 'inspect', '-f', '{{.State.Status}}', name]);
        if (state !== 'running') throw new Error(`container ${state}:\n${(await run(['docker', 'logs', name])).stderr}`);
        return fetch(`${url}/healthz`).then(
          (response) => response.status === 200,
          () => false,
        );
      },
      { timeoutMs: 20_000, what: `the container to answer /healthz on ${url}` },
    );
    return name;
  }

  const call = acmeApi(
    () => url,
    () => apiKey,
  );

  test('is small: Debian slim and the binary only (under 250 MB)', async () => {
    const bytes = Number(await check(['docker', 'image', 'inspect', '-f', '{{.Size}}', image]));
    console.log(`docker test: image ${(bytes / 1e6).toFixed(0)} MB`);
    expect(bytes).toBeLessThan(250e6);
  });

  test('runs as a non-root user, keeps its data in /data (a volume), and has a health check', async () => {
    const config = JSON.parse(await check(['docker', 'image', 'inspect', '-f', '{{json .Config}}', image])) as {
      User: string;
      Volumes: Record<string, unknown>;
      Healthcheck?: { Test: string[] };
      Env: string[];
    };
    expect(config.User).toBe('svc');
    expect(Object.keys(config.Volumes)).toEqual(['/data']);
    expect(config.Healthcheck?.Test[0]).toBe('CMD');
    expect(config.Env).toContain('DATABASE_URL=file:/data/svc.db');
  });

  test('serves /healthz, and Docker reports it healthy', async () => {
    const name = await start();
    expect(await (await fetch(`${url}/healthz`)).json()).toMatchObject({ success: true });
    await waitFor(async () => (await check(['docker', 'inspect', '-f', '{{.State.Health.Status}}', name])) === 'healthy', {
      timeoutMs: 20_000,
      what: 'docker to report the container healthy',
    });
    expect(await check(['docker', 'exec', name, 'id', '-u'])).toBe('10001');
    expect(await check(['docker', 'exec', name, 'svc', '--version'])).toStartWith('svc ');
  }, 60_000);

  test('svc workspace create in the container, and a booking through the API', async () => {
    const name = containers.at(-1)!;
    const created = JSON.parse(await check(['docker', 'exec', name, 'svc', 'workspace', 'create', '--slug', 'acme', '--name', 'Acme', '--json'])) as {
      apiKey: string;
    };
    apiKey = created.apiKey;
    const provider = (await call('POST', '/providers', { name: 'Robin' })).provider;
    const service = (await call('POST', '/services', { name: 'Massage', duration: 30, price: 40, currency: 'EUR', providerIds: [provider.id] })).service;
    const { booking } = await call('POST', '/bookings', { serviceId: service.id, email: 'ada@example.com', date: workdayAt(Date.now(), '10:00') });
    bookingId = booking.id;
    // The database and the generated secret are the svc user's, on the volume.
    expect(await check(['docker', 'exec', name, 'stat', '-c', '%U %a %n', '/data/svc.db', '/data/svc.secret'])).toBe(
      'svc 644 /data/svc.db\nsvc 600 /data/svc.secret',
    );
  }, 30_000);

  test('docker stop (SIGTERM) ends it with exit code 0, well within the 10 s grace', async () => {
    const name = containers.at(-1)!;
    const started = performance.now();
    await check(['docker', 'stop', name]);
    expect(performance.now() - started).toBeLessThan(6000);
    expect(await check(['docker', 'inspect', '-f', '{{.State.ExitCode}} {{.State.OOMKilled}}', name])).toBe('0 false');
    expect((await run(['docker', 'logs', name])).stderr).toContain('"msg":"stopped"');
  }, 30_000);

  test('a new container on the same volume has the workspace, its key and the booking', async () => {
    await start();
    expect((await call('GET', `/bookings/${bookingId}`)).booking).toMatchObject({ id: bookingId, customerEmail: 'ada@example.com', status: 'CONFIRMED' });
  }, 30_000);
});
