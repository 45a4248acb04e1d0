import { Elysia, t } from 'elysia';
import { openRoute } from '../../platform/access/policy.ts';
import { accessDeclarations } from '../../platform/access/macro.ts';
import { Booking } from '../bookings/index.ts';
import type { AppDeps } from '../../platform/app-deps.ts';
import { timeFormatter, wordingFor } from '../mail/index.ts';
import { escapeHtml, page, pageCsp } from '../../platform/pages/html.ts';
import { availableSlots, parseCalendarDate } from '../scheduling/index.ts';
import { AppError } from '../../core/errors.ts';
import { ErrorResponse } from '../../core/models.ts';
import { cancelManaged, managedJson, managedOffering, openManagedBooking, refusal, rescheduleManaged, type ManagedBooking } from './service.ts';

const TokenParams = t.Object({ token: t.String({ minLength: 1, maxLength: 200 }) });
const CancelForm = t.Object({ reason: t.Optional(t.String({ maxLength: 500 })) });
const RescheduleForm = t.Object({ date: t.String({ minLength: 1, maxLength: 64 }) });
const ManageResponse = t.Object({ success: t.Boolean(), booking: Booking });

/*
 * The customer's manage link (decisions section 14): `{app_url}/manage/{token}`, a server-rendered page whose
 * forms work without JavaScript, and the same over JSON at `{app_url}/api/manage/{token}`. The token is the
 * only credential; the request log never writes it (src/platform/http/request-log.ts redacts the segment after
 * `manage`).
 */
export function manageRoutes(deps: AppDeps) {
  const htmlHeaders = (status = 200) => ({
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': pageCsp(undefined),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    },
  });

  async function renderPage(token: string, query: { day?: string; done?: string; error?: string }): Promise<Response> {
    let managed: ManagedBooking;
    try {
      managed = await openManagedBooking(deps, token);
    } catch {
      return new Response(
        page({
          title: 'Booking not found',
          body: '<main class="wrap narrow"><h1>This link does not open a booking</h1><p class="lead">Please check the link in your email.</p></main>',
        }),
        htmlHeaders(404),
      );
    }
    const { booking, workspace } = managed;
    const de = wordingFor(workspace.language) === wordingFor('de');
    const say = (en: string, german: string) => escapeHtml(de ? german : en);
    const format = timeFormatter(workspace);
    const base = `/manage/${encodeURIComponent(token)}`;
    const statusText: Record<string, [string, string]> = {
      CONFIRMED: ['Confirmed', 'Bestätigt'],
      PENDING: ['Pending', 'Ausstehend'],
      CANCELLED: ['Cancelled', 'Storniert'],
      COMPLETED: ['Completed', 'Abgeschlossen'],
    };
    const [statusEn, statusDe] = statusText[booking.status]!;
    const parts: string[] = [
      `<main class="wrap narrow manage">`,
      `<header class="booking-head"><p>${escapeHtml(workspace.name)}</p><h1>${say('Your booking', 'Ihre Buchung')}</h1></header>`,
    ];
    if (query.done === 'cancelled')
      parts.push(
        `<p class="notice" role="status">${say('Your booking is cancelled. You will get an email.', 'Ihre Buchung ist storniert. Sie erhalten eine E-Mail.')}</p>`,
      );
    if (query.done === 'rescheduled')
      parts.push(
        `<p class="notice" role="status">${say('Your booking has a new time. You will get an email.', 'Ihre Buchung hat einen neuen Termin. Sie erhalten eine E-Mail.')}</p>`,
      );
    if (query.error) parts.push(`<p class="notice" role="alert">${escapeHtml(query.error)}</p>`);
    parts.push(
      '<dl>',
      `<dt>${say('Service', 'Leistung')}</dt><dd>${escapeHtml(managed.serviceName ?? '')}</dd>`,
      ...(managed.providerName ? [`<dt>${say('With', 'Bei')}</dt><dd>${escapeHtml(managed.providerName)}</dd>`] : []),
      `<dt>${say('Date', 'Datum')}</dt><dd>${escapeHtml(format.date(booking.startTime))}</dd>`,
      `<dt>${say('Time', 'Uhrzeit')}</dt><dd>${escapeHtml(format.span(booking.startTime, booking.endTime))}</dd>`,
      `<dt>${say('Status', 'Status')}</dt><dd>${escapeHtml(de ? statusDe : statusEn)}</dd>`,
      '</dl>',
    );
    const refused = refusal(managed, deps.clock.now());
    if (refused?.code === 'TOO_LATE_TO_CHANGE') {
      parts.push(
        `<p class="notice">${say(
          `Bookings can be cancelled or moved online until ${workspace.cancellationHours} hours before the start. Please contact ${workspace.name} directly.`,
          `Buchungen können bis ${workspace.cancellationHours} Stunden vor Beginn online storniert oder verschoben werden. Bitte wenden Sie sich direkt an ${workspace.name}.`,
        )}</p>`,
      );
    } else if (!refused) {
      const offering = await managedOffering(deps, managed);
      const day =
        query.day && /^\d{4}-\d{2}-\d{2}$/.test(query.day)
          ? query.day
          : Temporal.Instant.fromEpochMilliseconds(booking.startTime).toZonedDateTimeISO(workspace.timezone).toPlainDate().toString();
      let times: string[] = [];
      try {
        if (offering) times = await availableSlots(deps, workspace, offering, parseCalendarDate('day', day).toString());
      } catch {
        times = [];
      }
      parts.push(
        `<h2>${say('Move to another time', 'Auf einen anderen Termin verschieben')}</h2>`,
        `<form method="get" action="${base}"><label for="day">${say('Day', 'Tag')}</label><input id="day" name="day" type="date" value="${escapeHtml(day)}" required><button type="submit">${say('Show free times', 'Freie Zeiten zeigen')}</button></form>`,
      );
      if (times.length === 0) parts.push(`<p>${say('No free times on this day.', 'An diesem Tag sind keine Zeiten frei.')}</p>`);
      else {
        parts.push(`<p class="zone">${say(`Times in ${workspace.timezone}.`, `Uhrzeiten in ${workspace.timezone}.`)}</p>`);
        const instants = times.map((time) => Temporal.PlainDateTime.from(`${day}T${time}`).toZonedDateTime(workspace.timezone).toInstant().toString());
        parts.push(
          `<form method="post" action="${base}/reschedule"><div class="times">${times.map((time, i) => `<button type="submit" name="date" value="${escapeHtml(instants[i]!)}">${escapeHtml(time)}</button>`).join('')}</div></form>`,
        );
      }
      parts.push(
        `<h2>${say('Cancel the booking', 'Buchung stornieren')}</h2>`,
        `<form method="post" action="${base}/cancel"><label for="reason">${say('Reason (optional)', 'Grund (optional)')}</label><textarea id="reason" name="reason" rows="3" maxlength="500"></textarea><button type="submit">${say('Cancel booking', 'Buchung stornieren')}</button></form>`,
      );
    }
    parts.push('</main>');
    return new Response(page({ title: de ? 'Ihre Buchung' : 'Your booking', lang: workspace.language, body: parts.join('\n') }), htmlHeaders());
  }

  /** After a form post: back to the page (303), with what happened or what went wrong. */
  async function afterForm(token: string, work: () => Promise<unknown>, done: string): Promise<Response> {
    const base = `/manage/${encodeURIComponent(token)}`;
    try {
      await work();
      return new Response(null, { status: 303, headers: { location: `${base}?done=${done}` } });
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return renderPage(token, {});
      const message = error instanceof AppError ? error.message : 'something went wrong; please try again';
      return new Response(null, { status: 303, headers: { location: `${base}?error=${encodeURIComponent(message)}` } });
    }
  }

  // The token is the credential: guesses count against the client address like failed API keys (decisions section 6).
  const hidden = { openAccess: openRoute('v1'), detail: { hide: true } } as const;
  return new Elysia({ name: 'manage' })
    .use(accessDeclarations)
    .get('/manage/:token', ({ params, query }) => renderPage(params.token, query as Record<string, string>), { params: TokenParams, ...hidden })
    .post(
      '/manage/:token/cancel',
      ({ params, body }) => afterForm(params.token, () => cancelManaged(deps, params.token, body?.reason || undefined), 'cancelled'),
      { params: TokenParams, body: t.Optional(CancelForm), ...hidden },
    )
    .post('/manage/:token/reschedule', ({ params, body }) => afterForm(params.token, () => rescheduleManaged(deps, params.token, body.date), 'rescheduled'), {
      params: TokenParams,
      body: RescheduleForm,
      ...hidden,
    })
    .get('/api/manage/:token', async ({ params }) => ({ success: true, booking: managedJson(await openManagedBooking(deps, params.token)) }), {
      params: TokenParams,
      response: { 200: ManageResponse, 404: ErrorResponse },
      ...hidden,
    })
    .post('/api/manage/:token/cancel', async ({ params, body }) => ({ success: true, booking: await cancelManaged(deps, params.token, body?.reason) }), {
      params: TokenParams,
      body: t.Optional(CancelForm),
      response: { 200: ManageResponse, 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
      ...hidden,
    })
    .post('/api/manage/:token/reschedule', async ({ params, body }) => ({ success: true, booking: await rescheduleManaged(deps, params.token, body.date) }), {
      params: TokenParams,
      body: RescheduleForm,
      response: { 200: ManageResponse, 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
      ...hidden,
    });
}
