import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Subprocess } from 'bun';
import { freePort } from './process.ts';
import { waitFor } from './wait.ts';

/*
 * Real CalDAV servers for the calendar tests, each on a free loopback port with its own temporary storage:
 * Debian's radicale (with an htpasswd user) and xandikos (no authentication: it is meant to sit behind a proxy).
 * .ci/run installs both.
 */

export const RADICALE = '/usr/bin/radicale';
export const XANDIKOS = '/usr/bin/xandikos';

export interface CalDavServer {
  /** http://127.0.0.1:port */
  url: string;
  username: string;
  password: string;
  /** the URL of the user's calendar `name` (made with makeCalendar) */
  calendarUrl(name: string): string;
  /** creates calendar `name` for the user */
  makeCalendar(name: string, displayName: string): Promise<string>;
  /** stores `ics` in calendar `name` as `file` */
  putEvent(name: string, file: string, ics: string): Promise<void>;
  /** the calendar's objects as the server has them */
  listEvents(name: string): Promise<string[]>;
  stop(): Promise<void>;
}

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { method: 'OPTIONS' });
    return true;
  } catch {
    return false;
  }
}

function client(base: string, username: string, password: string, calendarPath: (name: string) => string) {
  const authorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  const calendarUrl = (name: string) => `${base}${calendarPath(name)}`;
  return {
    calendarUrl,
    async makeCalendar(name: string, displayName: string) {
      const body = `<?xml version="1.0" encoding="utf-8"?>
<C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop><D:displayname>${displayName}</D:displayname>
<C:supported-calendar-component-set><C:comp name="VEVENT"/></C:supported-calendar-component-set></D:prop></D:set></C:mkcalendar>`;
      const response = await fetch(calendarUrl(name), { method: 'MKCALENDAR', headers: { authorization, 'content-type': 'application/xml' }, body });
      if (response.status !== 201) throw new Error(`MKCALENDAR ${name}: ${response.status} ${await response.text()}`);
      return calendarUrl(name);
    },
    async putEvent(name: string, file: string, ics: string) {
      const response = await fetch(`${calendarUrl(name)}${file}`, { method: 'PUT', headers: { authorization, 'content-type': 'text/calendar' }, body: ics });
      if (response.status >= 300) throw new Error(`PUT ${file}: ${response.status} ${await response.text()}`);
    },
    async listEvents(name: string) {
      const body = `<?xml version="1.0" encoding="utf-8"?>
<C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><C:calendar-data/></D:prop>
<C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT"/></C:comp-filter></C:filter></C:calendar-query>`;
      const response = await fetch(calendarUrl(name), { method: 'REPORT', headers: { authorization, depth: '1', 'content-type': 'application/xml' }, body });
      const text = await response.text();
      return [...text.matchAll(/BEGIN:VEVENT[\s\S]*?END:VEVENT/g)].map((match) => match[0]);
    },
  };
}

async function stopChild(child: Subprocess, dir: string) {
  child.kill();
  await child.exited;
  rmSync(dir, { recursive: true, force: true });
}

/** A server that can be stopped and started again on its port with its data (a calendar server that is down for a while). */
export interface RestartableCalDavServer extends CalDavServer {
  /** stops the process, keeping its data */
  halt(): Promise<void>;
  /** starts it again on the same port and waits until it listens */
  restart(): Promise<void>;
}

/** Radicale on a free port, with user `alex` (plain htpasswd) and storage in a temp folder. */
export async function startRadicale(): Promise<RestartableCalDavServer> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-radicale-'));
  const port = freePort();
  const username = 'alex';
  const password = 'correct horse battery';
  writeFileSync(join(dir, 'users'), `${username}:${password}\n`);
  writeFileSync(
    join(dir, 'config'),
    `[server]\nhosts = 127.0.0.1:${port}\n[auth]\ntype = htpasswd\nhtpasswd_filename = ${join(dir, 'users')}\nhtpasswd_encryption = plain\n`
      + `[storage]\nfilesystem_folder = ${join(dir, 'collections')}\n[rights]\ntype = owner_only\n[logging]\nlevel = warning\n`,
  );
  const url = `http://127.0.0.1:${port}`;
  const spawn = async () => {
    const started = Bun.spawn({ cmd: [RADICALE, '--config', join(dir, 'config')], stdin: 'ignore', stdout: 'ignore', stderr: 'pipe' });
    await waitFor(() => answers(url), { timeoutMs: 15_000, what: 'radicale to listen' });
    return started;
  };
  let child: Subprocess | null = await spawn();
  return {
    url,
    username,
    password,
    ...client(url, username, password, (name) => `/${username}/${name}/`),
    async halt() {
      child?.kill();
      await child?.exited;
      child = null;
      await waitFor(async () => !(await answers(url)), { timeoutMs: 15_000, what: 'radicale to stop listening' });
    },
    async restart() {
      child ??= await spawn();
    },
    async stop() {
      if (child) await stopChild(child, dir);
      else rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Xandikos on a free port with its default principal (/user/) and no authentication. */
export async function startXandikos(): Promise<CalDavServer> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-xandikos-'));
  const port = freePort();
  const child = Bun.spawn({
    cmd: [XANDIKOS, '-d', dir, '--defaults', '-l', '127.0.0.1', '-p', String(port)],
    stdin: 'ignore',
    stdout: 'ignore',
    stderr: 'pipe',
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(() => answers(url), { timeoutMs: 15_000, what: 'xandikos to listen' });
  return {
    url,
    username: '',
    password: '',
    ...client(url, 'nobody', '', (name) => `/user/calendars/${name}/`),
    stop: () => stopChild(child, dir),
  };
}

/** Why the CalDAV tests cannot run here, or null when they can. */
export function caldavServersMissing(): string | null {
  const missing = [RADICALE, XANDIKOS].filter((path) => !existsSync(path));
  return missing.length > 0 ? `${missing.join(' and ')} missing (.ci/run installs radicale and xandikos)` : null;
}
