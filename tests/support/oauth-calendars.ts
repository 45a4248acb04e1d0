import { createHash, randomBytes } from 'node:crypto';
import type { Server } from 'bun';

/*
 * Local stand-ins of Google Calendar API v3 and Microsoft Graph v1.0 with their OAuth 2.0 endpoints, reached
 * through SVC_GOOGLE_OAUTH_URL / SVC_GOOGLE_API_URL and SVC_MICROSOFT_LOGIN_URL / SVC_MICROSOFT_GRAPH_URL.
 * They behave as the providers document: the consent redirects back with `code` and `state` (or
 * `error=access_denied`), the token endpoint checks the PKCE verifier against the challenge (S256), refresh tokens
 * can be revoked (invalid_grant), access tokens can be expired (401), lists are paged (pageToken /
 * @odata.nextLink, two items a page), full reads end with a sync token / delta link and later reads with one answer
 * only the changes (410 when it is stale), and the test can make the next request answer 429 with Retry-After, or
 * an insert store the event and then not answer in time.
 */

export type StandInKind = 'google' | 'microsoft';

/** An event as the stand-in keeps it, in the provider's own JSON shape. */
type Stored = Record<string, unknown> & { id: string; version: number; deleted?: boolean };

interface Calendar {
  id: string;
  name: string;
  writable: boolean;
  primary?: boolean;
  events: Map<string, Stored>;
}

export interface OAuthStandIn {
  kind: StandInKind;
  /** http://127.0.0.1:port: both the OAuth and the API base */
  url: string;
  clientId: string;
  clientSecret: string;
  /** what the consent page answers: grant (a code) or deny (error=access_denied) */
  consent: 'grant' | 'deny';
  /** the account's address */
  account: string;
  /** every request: method, path with query, when, and the bearer token */
  requests: { method: string; path: string; at: number; token: string | null; body: string }[];
  /** calendar id → calendar */
  calendars: Map<string, Calendar>;
  /** adds (or replaces) an event in the provider's shape */
  putEvent(calendarId: string, event: Record<string, unknown> & { id: string }): void;
  removeEvent(calendarId: string, id: string): void;
  /** every access token issued so far answers 401 from now on */
  expireAccessTokens(): void;
  /** every refresh token is refused with invalid_grant from now on */
  revokeRefreshTokens(): void;
  /** every sync token / delta link issued so far answers 410 from now on */
  forgetSyncTokens(): void;
  /** the next `count` API requests answer 429 with `Retry-After: seconds` */
  rateLimit(count: number, seconds: number): void;
  /** the next insert stores the event, then answers only after `ms` */
  stallNextInsert(ms: number): void;
  /** token requests: grant type and whether the verifier matched */
  tokenRequests: { grantType: string; pkce: boolean | null }[];
  stop(): void;
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });

export function startOAuthStandIn(kind: StandInKind): OAuthStandIn {
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  const accessTokens = new Set<string>();
  const refreshTokens = new Set<string>();
  const syncTokens = new Set<string>();
  let version = 1;
  let limited = { count: 0, seconds: 0 };
  let stall = 0;
  const pageSize = 2;
  let server: Server<undefined>;

  const standIn: OAuthStandIn = {
    kind,
    url: '',
    clientId: `${kind}-client-id`,
    clientSecret: `${kind}-client-secret`,
    consent: 'grant',
    account: kind === 'google' ? 'alex@example.com' : 'alex@contoso.onmicrosoft.com',
    requests: [],
    calendars: new Map(),
    tokenRequests: [],
    putEvent(calendarId, event) {
      standIn.calendars.get(calendarId)!.events.set(event.id, { ...event, version: version++ });
    },
    removeEvent(calendarId, id) {
      const event = standIn.calendars.get(calendarId)!.events.get(id);
      if (event) Object.assign(event, { deleted: true, version: version++, status: 'cancelled' });
    },
    expireAccessTokens: () => accessTokens.clear(),
    revokeRefreshTokens: () => refreshTokens.clear(),
    forgetSyncTokens: () => syncTokens.clear(),
    rateLimit(count, seconds) {
      limited = { count, seconds };
    },
    stallNextInsert(ms) {
      stall = ms;
    },
    stop: () => server.stop(true),
  };

  const primary = kind === 'google' ? standIn.account : 'AAMkAGI2TG93AAA=';
  standIn.calendars.set(primary, { id: primary, name: kind === 'google' ? standIn.account : 'Calendar', writable: true, primary: true, events: new Map() });
  const holidays = kind === 'google' ? 'en.german#holiday@group.v.calendar.google.com' : 'AAMkAGI2TG94AAA=';
  standIn.calendars.set(holidays, {
    id: holidays,
    name: kind === 'google' ? 'Holidays in Germany' : 'Team calendar (shared)',
    writable: false,
    events: new Map(),
  });
  const third = kind === 'google' ? 'c_9f1e@group.calendar.google.com' : 'AAMkAGI2TG95AAA=';
  standIn.calendars.set(third, { id: third, name: 'Studio', writable: true, events: new Map() });

  async function token(form: URLSearchParams): Promise<Response> {
    if (form.get('client_id') !== standIn.clientId || form.get('client_secret') !== standIn.clientSecret) return json({ error: 'invalid_client' }, 401);
    const grantType = form.get('grant_type') ?? '';
    if (grantType === 'authorization_code') {
      const round = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const pkce = round ? createHash('sha256').update(verifier).digest('base64url') === round.challenge : null;
      standIn.tokenRequests.push({ grantType, pkce });
      if (!round || !pkce || round.redirectUri !== form.get('redirect_uri')) return json({ error: 'invalid_grant', error_description: 'Bad Request' }, 400);
    } else if (grantType === 'refresh_token') {
      standIn.tokenRequests.push({ grantType, pkce: null });
      if (!refreshTokens.has(form.get('refresh_token') ?? ''))
        return json({ error: 'invalid_grant', error_description: 'Token has been expired or revoked.' }, 400);
    } else return json({ error: 'unsupported_grant_type' }, 400);
    const access = `ya29.${randomBytes(12).toString('hex')}`;
    accessTokens.add(access);
    const answer: Record<string, unknown> = { access_token: access, expires_in: 3599, token_type: 'Bearer', scope: 'calendar' };
    if (grantType === 'authorization_code' || kind === 'microsoft') {
      const refresh = `1//${randomBytes(12).toString('hex')}`;
      refreshTokens.add(refresh);
      answer.refresh_token = refresh;
    }
    return json(answer);
  }

  function authorize(url: URL): Response {
    const redirect = new URL(url.searchParams.get('redirect_uri')!);
    redirect.searchParams.set('state', url.searchParams.get('state') ?? '');
    if (standIn.consent === 'deny' || url.searchParams.get('code_challenge_method') !== 'S256') {
      redirect.searchParams.set('error', 'access_denied');
    } else {
      const code = `4/${randomBytes(12).toString('hex')}`;
      codes.set(code, { challenge: url.searchParams.get('code_challenge') ?? '', redirectUri: redirect.origin + redirect.pathname });
      redirect.searchParams.set('code', code);
    }
    return new Response(null, { status: 302, headers: { location: redirect.toString() } });
  }

  /** One page of `items` from `offset`. */
  const page = <T>(items: T[], offset: number) => ({
    items: items.slice(offset, offset + pageSize),
    next: offset + pageSize < items.length ? offset + pageSize : null,
  });

  async function google(request: Request, url: URL, path: string): Promise<Response> {
    if (path === '/calendar/v3/users/me/calendarList') {
      const all = [...standIn.calendars.values()].map((calendar) => ({
        kind: 'calendar#calendarListEntry',
        id: calendar.id,
        summary: calendar.name,
        accessRole: calendar.writable ? 'owner' : 'reader',
        ...(calendar.primary ? { primary: true } : {}),
      }));
      const { items, next } = page(all, Number(url.searchParams.get('pageToken') ?? 0));
      return json({ kind: 'calendar#calendarList', items, ...(next !== null ? { nextPageToken: String(next) } : {}) });
    }
    const match = /^\/calendar\/v3\/calendars\/([^/]+)\/events(?:\/([^/]+))?$/.exec(path);
    const calendar = match && standIn.calendars.get(decodeURIComponent(match[1]!));
    if (!match || !calendar) return json({ error: { code: 404, message: 'Not Found' } }, 404);
    const id = match[2] && decodeURIComponent(match[2]);
    if (request.method === 'GET' && !id) {
      const syncToken = url.searchParams.get('syncToken');
      if (syncToken && !syncTokens.has(syncToken))
        return json(
          { error: { code: 410, message: 'Sync token is no longer valid, a full sync is required.', errors: [{ reason: 'fullSyncRequired' }] } },
          410,
        );
      const since = syncToken ? Number(syncToken.split('-')[1]) : 0;
      const all = [...calendar.events.values()]
        .filter((event) => (syncToken ? event.version >= since : !event.deleted))
        .map(({ version: _v, deleted: _d, ...event }) => ({ kind: 'calendar#event', ...event }));
      const { items, next } = page(all, Number(url.searchParams.get('pageToken') ?? 0));
      if (next !== null) return json({ kind: 'calendar#events', items, nextPageToken: String(next) });
      const nextSyncToken = `sync-${version}`;
      syncTokens.add(nextSyncToken);
      return json({ kind: 'calendar#events', items, nextSyncToken });
    }
    const body = request.method === 'POST' || request.method === 'PUT' ? ((await request.json()) as Record<string, unknown>) : {};
    if (request.method === 'POST') {
      const newId = String(body.id ?? randomBytes(8).toString('hex'));
      if (calendar.events.has(newId))
        return json({ error: { code: 409, message: 'The requested identifier already exists.', errors: [{ reason: 'duplicate' }] } }, 409);
      standIn.putEvent(calendar.id, { ...body, id: newId, status: body.status ?? 'confirmed' });
      if (stall > 0) {
        const wait = stall;
        stall = 0;
        await Bun.sleep(wait);
      }
      return json(calendar.events.get(newId));
    }
    const existing = id ? calendar.events.get(id) : undefined;
    if (!existing) return json({ error: { code: 404, message: 'Not Found' } }, 404);
    if (request.method === 'PUT') {
      standIn.putEvent(calendar.id, { ...body, id: existing.id, status: body.status ?? 'confirmed' });
      return json(calendar.events.get(existing.id));
    }
    if (request.method === 'DELETE') {
      if (existing.deleted) return json({ error: { code: 410, message: 'Resource has been deleted' } }, 410);
      standIn.removeEvent(calendar.id, existing.id);
      return new Response(null, { status: 204 });
    }
    return json({ error: { code: 405 } }, 405);
  }

  async function microsoft(request: Request, url: URL, path: string): Promise<Response> {
    const base = `${standIn.url}/v1.0`;
    if (path === '/v1.0/me/calendars') {
      const all = [...standIn.calendars.values()].map((calendar) => ({
        id: calendar.id,
        name: calendar.name,
        canEdit: calendar.writable,
        isDefaultCalendar: Boolean(calendar.primary),
        owner: { name: 'Alex Wilber', address: standIn.account },
      }));
      const offset = Number(url.searchParams.get('$skip') ?? 0);
      const { items, next } = page(all, offset);
      return json({
        '@odata.context': `${base}/$metadata#users('me')/calendars`,
        value: items,
        ...(next !== null ? { '@odata.nextLink': `${base}/me/calendars?$top=100&$skip=${next}` } : {}),
      });
    }
    const eventMatch = /^\/v1\.0\/me\/events\/([^/]+)$/.exec(path);
    if (eventMatch) {
      const id = decodeURIComponent(eventMatch[1]!);
      const calendar = [...standIn.calendars.values()].find((candidate) => candidate.events.get(id) && !candidate.events.get(id)!.deleted);
      if (!calendar) return json({ error: { code: 'ErrorItemNotFound', message: 'The specified object was not found in the store.' } }, 404);
      if (request.method === 'DELETE') {
        standIn.removeEvent(calendar.id, id);
        return new Response(null, { status: 204 });
      }
      const body = (await request.json()) as Record<string, unknown>;
      standIn.putEvent(calendar.id, { ...calendar.events.get(id), ...body, id });
      return json(calendar.events.get(id));
    }
    const match = /^\/v1\.0\/me\/calendars\/([^/]+)\/(events|calendarView\/delta)$/.exec(path);
    const calendar = match && standIn.calendars.get(decodeURIComponent(match[1]!));
    if (!match || !calendar) return json({ error: { code: 'ErrorItemNotFound', message: 'The specified object was not found in the store.' } }, 404);
    if (match[2] === 'calendarView/delta') {
      const deltaToken = url.searchParams.get('$deltatoken');
      if (deltaToken && !syncTokens.has(deltaToken)) return json({ error: { code: 'SyncStateNotFound', message: 'The sync state cannot be found.' } }, 410);
      const since = deltaToken ? Number(deltaToken.split('-')[1]) : 0;
      const all = [...calendar.events.values()]
        .filter((event) => (deltaToken ? event.version >= since : !event.deleted))
        .map(({ version: _v, deleted, ...event }) => (deleted ? { id: event.id, '@removed': { reason: 'deleted' } } : event));
      const offset = Number(url.searchParams.get('$skiptoken') ?? 0);
      const { items, next } = page(all, offset);
      const self = `${base}/me/calendars/${encodeURIComponent(calendar.id)}/calendarView/delta`;
      if (next !== null) return json({ value: items, '@odata.nextLink': `${self}?$skiptoken=${next}${deltaToken ? `&$deltatoken=${deltaToken}` : ''}` });
      const token = `delta-${version}`;
      syncTokens.add(token);
      return json({ value: items, '@odata.deltaLink': `${self}?$deltatoken=${token}` });
    }
    if (request.method === 'GET') {
      const wanted = /ep\/value eq '(.*)'\)$/.exec(url.searchParams.get('$filter') ?? '')?.[1]?.replaceAll("''", "'");
      const found = [...calendar.events.values()].filter(
        (event) => !event.deleted && (event.singleValueExtendedProperties as { value: string }[] | undefined)?.some((property) => property.value === wanted),
      );
      return json({ value: found.map((event) => ({ id: event.id })) });
    }
    if (request.method === 'POST') {
      const body = (await request.json()) as Record<string, unknown>;
      const again = [...calendar.events.values()].find((event) => body.transactionId && event.transactionId === body.transactionId && !event.deleted);
      if (again) return json(again, 201);
      const id = `AAMkAGI2${randomBytes(6).toString('hex')}=`;
      standIn.putEvent(calendar.id, { ...body, id, iCalUId: `040000008200E00074C5B7101A82E008${randomBytes(8).toString('hex')}`, isCancelled: false });
      if (stall > 0) {
        const wait = stall;
        stall = 0;
        await Bun.sleep(wait);
      }
      return json(calendar.events.get(id), 201);
    }
    return json({ error: { code: 'MethodNotAllowed' } }, 405);
  }

  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const path = url.pathname;
      const bearer = request.headers.get('authorization')?.replace(/^Bearer /, '') ?? null;
      standIn.requests.push({ method: request.method, path: path + url.search, at: Date.now(), token: bearer, body: '' });
      if (path === '/o/oauth2/v2/auth' || path.endsWith('/oauth2/v2.0/authorize')) return authorize(url);
      if (path === '/token' || path.endsWith('/oauth2/v2.0/token')) return token(new URLSearchParams(await request.text()));
      if (!bearer || !accessTokens.has(bearer)) {
        return kind === 'google'
          ? json({ error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } }, 401)
          : json({ error: { code: 'InvalidAuthenticationToken', message: 'Lifetime validation failed, the token is expired.' } }, 401);
      }
      if (limited.count > 0) {
        limited.count--;
        return kind === 'google'
          ? json({ error: { code: 429, message: 'Rate Limit Exceeded', errors: [{ reason: 'rateLimitExceeded' }] } }, 429, {
              'retry-after': String(limited.seconds),
            })
          : json({ error: { code: 'ApplicationThrottled', message: 'Application is over its MailboxConcurrency limit.' } }, 429, {
              'retry-after': String(limited.seconds),
            });
      }
      return kind === 'google' ? google(request, url, path) : microsoft(request, url, path);
    },
  });
  standIn.url = `http://127.0.0.1:${server.port}`;
  return standIn;
}
