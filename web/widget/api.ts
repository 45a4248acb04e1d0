import type {
  ApiErrorBody,
  AvailableDays,
  AvailableSlots,
  WidgetBooking,
  WidgetBookingRequest,
  WidgetBookingResponse,
  WidgetConfig,
} from '../../src/core/widget-protocol.ts';
import type { BookingFailure } from './machine.ts';

/** The four public routes the widget calls; tests pass their own. */
export interface WidgetApi {
  config(): Promise<WidgetConfig>;
  days(serviceId: string, from: string, to: string, providerId: string | null): Promise<string[]>;
  /** the free times, or the free times with the places left of each (full times of a waiting list with 0) */
  slots(serviceId: string, date: string, providerId: string | null): Promise<string[] | { slots: string[]; seatsLeft?: Record<string, number> }>;
  /** joins the waiting list of a full time: 'joined', 'available' (a place freed meanwhile) or 'failed' */
  joinWaitlist?(request: WaitlistRequest): Promise<'joined' | 'available' | 'failed'>;
  book(
    request: WidgetBookingRequest,
  ): Promise<{ ok: true; booking: WidgetBooking; checkoutUrl: string | null; manageUrl?: string | null } | { ok: false; failure: BookingFailure }>;
}

export interface WaitlistRequest {
  serviceId: string;
  providerId?: string;
  date: string;
  email: string;
  name?: string;
  recaptchaToken?: string;
}

class HttpError extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

/** The API of svc at `base` (the origin that served the script) for one workspace. */
export function httpApi(base: string, slug: string): WidgetApi {
  const root = `${base}/api/v1/workspaces/${encodeURIComponent(slug)}`;
  const get = async <T>(path: string, query: Record<string, string | null> = {}): Promise<T> => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== null) params.set(key, value);
    const search = params.toString();
    const response = await fetch(`${root}${path}${search ? `?${search}` : ''}`, { credentials: 'omit' });
    if (!response.ok) throw new HttpError(response.status);
    return (await response.json()) as T;
  };
  return {
    config: () => get<WidgetConfig>('/config'),
    async days(serviceId, from, to, providerId) {
      const answer = await get<AvailableDays>('/availability/days', { serviceId, from, to, providerId });
      // A waiting-list service's full days are open too: their full times take the list.
      return answer.seatsLeft ? [...new Set([...answer.days, ...Object.keys(answer.seatsLeft)])].sort() : answer.days;
    },
    slots: (serviceId, date, providerId) => get<AvailableSlots>('/availability', { serviceId, date, providerId }),
    async joinWaitlist(request) {
      try {
        const response = await fetch(`${root}/waitlist`, {
          method: 'POST',
          credentials: 'omit',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(request),
        });
        if (response.ok) return 'joined';
        const body = (await response.json().catch(() => null)) as ApiErrorBody | null;
        return body?.code === 'SLOT_AVAILABLE' ? 'available' : 'failed';
      } catch {
        return 'failed';
      }
    },
    async book(request) {
      let response: Response;
      try {
        response = await fetch(`${root}/bookings`, {
          method: 'POST',
          credentials: 'omit',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(request),
        });
      } catch {
        return { ok: false, failure: { kind: 'network' } };
      }
      const body = (await response.json().catch(() => null)) as WidgetBookingResponse | ApiErrorBody | null;
      if (response.ok && body?.success) return { ok: true, booking: body.booking, checkoutUrl: body.checkoutUrl ?? null, manageUrl: body.manageUrl ?? null };
      return { ok: false, failure: failureOf(response.status, body && !body.success ? body : null) };
    },
  };
}

/** Decisions section 11: 409 → taken, 403 DOMAIN_NOT_ALLOWED → not allowed, other 4xx → the server's words, else retry. */
export function failureOf(status: number, body: ApiErrorBody | null): BookingFailure {
  if (status === 409) return { kind: 'taken' };
  if (status === 403 && body?.code === 'DOMAIN_NOT_ALLOWED') return { kind: 'forbidden' };
  if (status >= 400 && status < 500 && status !== 429 && body) return { kind: 'invalid', message: body.error, details: body.details ?? [] };
  return { kind: 'network' };
}
