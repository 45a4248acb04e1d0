import ICAL from 'ical.js';
import { type CalendarAccount, CalendarAccessError, type OAuthClient, type OAuthTokens } from '../../src/ports/calendar.ts';
import type { GuardedFetch } from '../../src/platform/guarded-fetch.ts';
import { asAccessError } from './http.ts';
import { StaleStateError } from './incremental.ts';

/*
 * What the Google and Microsoft adapters share (docs/contract/calendars.md §8, §10): the OAuth 2.0 token endpoint
 * (code with PKCE, refresh), and a JSON client that signs each request with the access token, refreshes it ahead
 * of its expiry and once more on a 401, and backs off on rate limits as the answer's Retry-After asks.
 * Plain fetch with typed shapes: docs/decisions/0016-calendar-apis-over-fetch.md.
 */

/** An access token this close to its expiry is refreshed before use, ms. */
const REFRESH_AHEAD_MS = 5 * 60_000;
/** Rate-limited attempts of one request before the sync gives up (the next sync tries again). */
const RATE_LIMIT_RETRIES = 3;
/** A Retry-After longer than this is not waited for within a sync, ms. */
const LONGEST_WAIT_MS = 30_000;

export interface OAuthEndpoints {
  /** Google, Microsoft: names the provider in messages */
  provider: string;
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  scope: string;
  /** further parameters of the consent URL (Google: access_type=offline, prompt=consent) */
  authorizeParams?: Record<string, string>;
}

/** The OAuth client of one provider, with the refresh its API client needs. */
export interface RefreshingOAuthClient extends OAuthClient {
  refresh(refreshToken: string): Promise<OAuthTokens>;
}

interface TokenAnswer {
  access_token?: string;
  refresh_token?: string;
  expires_in?: number | string;
  error?: string;
  error_description?: string;
}

export function oauthClient(endpoints: OAuthEndpoints, fetch: GuardedFetch, now: () => number): RefreshingOAuthClient {
  async function token(form: Record<string, string>, previousRefresh: string | null): Promise<OAuthTokens> {
    let response: Response;
    try {
      response = await fetch(endpoints.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ client_id: endpoints.clientId, client_secret: endpoints.clientSecret, ...form }).toString(),
      });
    } catch (error) {
      throw asAccessError(error);
    }
    const answer = (await response.json().catch(() => ({}))) as TokenAnswer;
    if (answer.error === 'invalid_grant' || answer.error === 'invalid_client' || answer.error === 'unauthorized_client') {
      throw CalendarAccessError.of('auth', { code: 'authorizationRefused', values: { provider: endpoints.provider, detail: answer.error } });
    }
    if (!response.ok || !answer.access_token) {
      throw new CalendarAccessError(
        'unreachable',
        `${endpoints.provider} answered ${response.status} to the token request${answer.error ? ` (${answer.error})` : ''}`,
      );
    }
    return {
      accessToken: answer.access_token,
      refreshToken: answer.refresh_token ?? previousRefresh,
      expiresAt: now() + Number(answer.expires_in ?? 3600) * 1000,
    };
  }

  return {
    authorizeUrl({ state, codeChallenge, redirectUri }) {
      const url = new URL(endpoints.authorizeUrl);
      const params = {
        client_id: endpoints.clientId,
        response_type: 'code',
        redirect_uri: redirectUri,
        scope: endpoints.scope,
        state,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
        ...endpoints.authorizeParams,
      };
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
      return url.toString();
    },
    exchange: ({ code, codeVerifier, redirectUri }) =>
      token({ grant_type: 'authorization_code', code, code_verifier: codeVerifier, redirect_uri: redirectUri }, null),
    refresh: (refreshToken) => token({ grant_type: 'refresh_token', refresh_token: refreshToken }, refreshToken),
  };
}

export type ApiRequest = (url: string, init?: { method?: string; body?: unknown; headers?: Record<string, string> }) => Promise<Response>;

/** Seconds or an HTTP date, as ms from now; null without a usable header. */
function retryAfterMs(response: Response, now: number): number | null {
  const header = response.headers.get('retry-after');
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** 429, or Google's 403 with reason rateLimitExceeded / userRateLimitExceeded. */
async function isRateLimited(response: Response): Promise<boolean> {
  if (response.status === 429) return true;
  if (response.status !== 403) return false;
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { error?: { errors?: { reason?: string }[] } } | null;
  return Boolean(body?.error?.errors?.some((error) => error.reason === 'rateLimitExceeded' || error.reason === 'userRateLimitExceeded'));
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Requests to a provider's JSON API with the account's tokens: refreshed (and handed to `account.oauth.save`)
 * before they expire and after a 401; a second 401, or a refused refresh, is CalendarAccessError('auth').
 */
export function apiClient(
  account: CalendarAccount,
  oauth: RefreshingOAuthClient,
  fetch: GuardedFetch,
  now: () => number,
  sleep: (ms: number) => Promise<void> = realSleep,
): ApiRequest {
  if (!account.oauth) throw new CalendarAccessError('auth', `the ${account.kind} connection has no authorization: reconnect the calendar`);
  const stored = account.oauth;
  let tokens = stored.tokens;

  async function accessToken(force: boolean): Promise<string> {
    if (force || tokens.expiresAt - REFRESH_AHEAD_MS <= now()) {
      if (!tokens.refreshToken) throw CalendarAccessError.of('auth', { code: 'authorizationExpired', values: { provider: account.kind } });
      tokens = await oauth.refresh(tokens.refreshToken);
      await stored.save(tokens);
    }
    return tokens.accessToken;
  }

  return async (url, init = {}) => {
    let refreshed = false;
    for (let attempt = 0; ; ) {
      const headers: Record<string, string> = { accept: 'application/json', ...init.headers, authorization: `Bearer ${await accessToken(false)}` };
      if (init.body !== undefined) headers['content-type'] = 'application/json';
      let response: Response;
      try {
        response = await fetch(url, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
      } catch (error) {
        throw asAccessError(error);
      }
      if (response.status === 401) {
        if (refreshed) throw CalendarAccessError.of('auth', { code: 'authorizationRefused', values: { provider: new URL(url).host, detail: '401' } });
        refreshed = true;
        await accessToken(true);
        continue;
      }
      if (await isRateLimited(response)) {
        const wait = retryAfterMs(response, Date.now()) ?? 1000 * 2 ** attempt;
        if (attempt >= RATE_LIMIT_RETRIES || wait > LONGEST_WAIT_MS) {
          throw CalendarAccessError.of('unreachable', { code: 'rateLimited', values: { host: new URL(url).host } });
        }
        attempt++;
        await sleep(wait);
        continue;
      }
      return response;
    }
  };
}

/** The answer's JSON when it is 2xx; StaleStateError for 410; else CalendarAccessError ('auth' for 403). */
export async function jsonOf<T>(response: Response, provider: string): Promise<T> {
  if (response.ok) return (await response.json()) as T;
  if (response.status === 410) throw new StaleStateError();
  if (response.status === 403) throw CalendarAccessError.of('auth', { code: 'permissions', values: { provider } });
  throw CalendarAccessError.of('unreachable', { code: 'readFailed', values: { provider, status: response.status } });
}

/** The one VEVENT of a booking's iCalendar object, as the Google and Microsoft APIs take it. */
export interface BookingEvent {
  uid: string;
  summary: string;
  description: string | null;
  location: string | null;
  /** ISO 8601 UTC */
  start: string;
  end: string;
  tentative: boolean;
  sequence: number;
}

export function bookingEventOf(ics: string, uid: string): BookingEvent {
  let event: ICAL.Component | null;
  try {
    event = new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent');
  } catch {
    event = null;
  }
  const start = event?.getFirstPropertyValue('dtstart');
  const end = event?.getFirstPropertyValue('dtend');
  if (!event || !(start instanceof ICAL.Time) || !(end instanceof ICAL.Time)) {
    throw new CalendarAccessError('unreachable', 'the event to write is not an iCalendar VEVENT with DTSTART and DTEND');
  }
  const text = (name: string) => {
    const value = event.getFirstPropertyValue(name);
    return typeof value === 'string' && value ? value : null;
  };
  return {
    uid,
    summary: text('summary') ?? '',
    description: text('description'),
    location: text('location'),
    start: start.toJSDate().toISOString(),
    end: end.toJSDate().toISOString(),
    tentative: (text('status') ?? '').toUpperCase() === 'TENTATIVE',
    sequence: Number(event.getFirstPropertyValue('sequence') ?? 0) || 0,
  };
}
