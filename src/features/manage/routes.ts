import { Elysia, t } from 'elysia';
import { openRoute } from '../../platform/access/policy.ts';
import { accessDeclarations } from '../../platform/access/macro.ts';
import { Booking, displayPayment, displayStart } from '../bookings/index.ts';
import type { AppDeps } from '../../platform/app-deps.ts';
import { translator } from '../../core/i18n/catalogue.ts';
import { html, type Html } from '../../platform/pages/html.ts';
import { layout } from '../../platform/pages/layout.ts';
import { afterLinkForm, linkNotFound, linkPageBody, linkPageHead, linkPageResponse } from '../../platform/pages/link-page.ts';
import { availableSlots, parseCalendarDate } from '../scheduling/index.ts';
import { ErrorResponse } from '../../core/models.ts';
import { mailEnabled } from '../../platform/config.ts';
import { calendarDocument } from '../mail/index.ts';
import type { WorkspaceRecord } from '../../ports/storage/index.ts';
import { cancelManaged, managedJson, managedOffering, openManagedBooking, refusal, rescheduleManaged, type ManagedBooking } from './service.ts';

const TokenParams = t.Object({ token: t.String({ minLength: 1, maxLength: 200 }) });
const CancelForm = t.Object({
  reason: t.Optional(t.String({ maxLength: 500 })),
  // an occurrence of a series: `later` cancels it and every later one not yet started (docs/contract/series.md §3)
  scope: t.Optional(t.Union([t.Literal('this'), t.Literal('later')])),
});
const RescheduleForm = t.Object({ date: t.String({ minLength: 1, maxLength: 64 }) });
const ManageResponse = t.Object({ success: t.Boolean(), booking: Booking });

/*
 * The customer's manage link: `{app_url}/manage/{token}`, a server-rendered page whose
 * forms work without JavaScript, and the same over JSON at `{app_url}/api/manage/{token}`. The token is the
 * only credential; the request log never writes it (src/platform/http/request-log.ts redacts the segment after
 * `manage`).
 */
/** The instant a `move` query names, or null for anything else. */
function movedTo(value: string): number | null {
  const at = Date.parse(value);
  return /^\d{4}-\d{2}-\d{2}T/.test(value) && Number.isFinite(at) ? at : null;
}

const dayOf = (at: number, zone: string) => Temporal.Instant.fromEpochMilliseconds(at).toZonedDateTimeISO(zone).toPlainDate().toString();

/** How to reach the workspace when the page can no longer change the booking: its contact email and phone, as links. */
function contactLine(workspace: WorkspaceRecord, t: ReturnType<typeof translator<'pages.manage'>>): Html {
  const ways = [
    workspace.contactEmail && html`<a href="mailto:${workspace.contactEmail}">${workspace.contactEmail}</a>`,
    workspace.contactPhone && html`<a href="tel:${workspace.contactPhone.replace(/[^0-9+]/g, '')}">${workspace.contactPhone}</a>`,
  ].filter((way): way is Html => Boolean(way));
  if (ways.length === 0) return html`${t('contactDirectly', { workspace: workspace.name })}`;
  return html`${t('contactBy', { workspace: workspace.name })} ${ways.map((way, i) => html`${i > 0 ? ', ' : ''}${way}`)}.`;
}

/** The booking as a calendar entry the customer adds to their calendar: the same UID and SEQUENCE as its mails. */
function bookingCalendar(managed: ManagedBooking, url: string, publicUrl: string, now: number): string {
  const { booking, workspace } = managed;
  return calendarDocument({ publicUrl, timezone: workspace.timezone, name: workspace.name, method: null, stamp: now }, [
    {
      bookingId: booking.id,
      startTime: booking.startTime,
      endTime: booking.endTime,
      status: booking.status,
      revision: booking.revision,
      summary: `${managed.serviceName ?? ''} · ${workspace.name}`,
      description: [managed.providerName, url].filter(Boolean).join('\n'),
      url,
    },
  ]);
}

/** The payment's row of the booking's details, when there is money in it. */
const paymentRow = (terms: string | null, label: string): Html[] => (terms ? [html`<dt>${label}</dt><dd>${terms}</dd>`] : []);

export function manageRoutes(deps: AppDeps) {
  const notFound = () => {
    const t = translator('en', 'pages.manage');
    return linkNotFound({ notFoundTitle: t('notFoundTitle'), notFoundHeading: t('notFoundHeading'), notFoundLead: t('notFoundLead') });
  };

  async function renderPage(token: string, query: { day?: string; done?: string; error?: string; move?: string; confirm?: string }): Promise<Response> {
    let managed: ManagedBooking;
    try {
      managed = await openManagedBooking(deps, token);
    } catch {
      return notFound();
    }
    const { booking, workspace } = managed;
    const t = translator(workspace.language, 'pages.manage');
    // one way of writing a time on every customer page: `10:00 (Europe/Berlin)`, dates in the workspace's locale
    const at = (instant: number) => displayStart(workspace, instant);
    const when = (instant: number) => `${at(instant).date}, ${at(instant).time} (${workspace.timezone})`;
    const base = `/manage/${encodeURIComponent(token)}`;
    // Mail follows a change only when svc can send it: a promise of mail on an install without SMTP is not made.
    const mailFollows = mailEnabled(deps.config) ? ` ${t('mailFollows')}` : '';
    const parts: Html[] = [html`<main class="wrap narrow manage">`, linkPageHead(workspace.name, t('title'))];
    if (query.done === 'cancelled') parts.push(html`<p class="notice" role="status">${t('cancelled')}${mailFollows}</p>`);
    if (query.done === 'cancelled-later') parts.push(html`<p class="notice" role="status">${t('cancelledLater')}${mailFollows}</p>`);
    if (query.done === 'rescheduled') parts.push(html`<p class="notice" role="status">${t('rescheduled')}${mailFollows}</p>`);
    if (query.error) parts.push(html`<p class="notice" role="alert">${query.error}</p>`);
    parts.push(
      html`<dl>`,
      html`<dt>${t('service')}</dt><dd>${managed.serviceName ?? ''}</dd>`,
      ...(managed.providerName ? [html`<dt>${t('with')}</dt><dd>${managed.providerName}</dd>`] : []),
      html`<dt>${t('date')}</dt><dd>${at(booking.startTime).date}</dd>`,
      html`<dt>${t('time')}</dt><dd>${at(booking.startTime).time} – ${at(booking.endTime).time} (${workspace.timezone})</dd>`,
      html`<dt>${t('status')}</dt><dd>${t(`statuses.${booking.status}`)}</dd>`,
      ...paymentRow(displayPayment(workspace, booking), t('payment')),
      html`</dl>`,
    );
    if (booking.seriesId) parts.push(html`<p>${t('seriesNote')}</p>`);
    if (booking.status === 'CONFIRMED')
      parts.push(html`<p class="actions"><a class="button secondary" href="${base}/booking.ics" download>${t('addToCalendar')}</a></p>`);
    const refused = refusal(managed, deps.clock.now());
    const move = query.move ? movedTo(query.move) : null;
    if (refused?.code === 'TOO_LATE_TO_CHANGE') {
      parts.push(html`<p class="notice">${t('tooLate', { hours: workspace.cancellationHours })} ${contactLine(workspace, t)}</p>`);
    } else if (!refused && move !== null) {
      // One tap on a time only asks: the booking moves when the customer confirms (a form, so no script is needed).
      parts.push(
        html`<h2>${t('confirmMoveHeading')}</h2>`,
        html`<p>${t('confirmMove', { from: when(booking.startTime), to: when(move) })}</p>`,
        html`<form method="post" action="${base}/reschedule"><input type="hidden" name="date" value="${new Date(move).toISOString()}"><div class="buttons"><button type="submit" class="primary">${t('moveButton')}</button><a href="${base}?day=${dayOf(move, workspace.timezone)}">${t('keepTime')}</a></div></form>`,
      );
    } else if (!refused && query.confirm === 'cancel-later' && booking.seriesId) {
      parts.push(
        html`<h2>${t('confirmCancelLaterHeading')}</h2>`,
        html`<p>${t('confirmCancelLaterLead')}</p>`,
        html`<form method="post" action="${base}/cancel"><input type="hidden" name="scope" value="later"><label for="reason">${t('reason')}</label><textarea id="reason" name="reason" rows="3" maxlength="500"></textarea><div class="buttons"><button type="submit" class="danger">${t('confirmCancelLaterButton')}</button><a href="${base}">${t('keepBooking')}</a></div></form>`,
      );
    } else if (!refused && query.confirm === 'cancel') {
      parts.push(
        html`<h2>${t('confirmCancelHeading')}</h2>`,
        html`<p>${t('confirmCancelLead')}</p>`,
        html`<form method="post" action="${base}/cancel"><input type="hidden" name="scope" value="this"><label for="reason">${t('reason')}</label><textarea id="reason" name="reason" rows="3" maxlength="500"></textarea><div class="buttons"><button type="submit" class="danger">${t('confirmCancelButton')}</button><a href="${base}">${t('keepBooking')}</a></div></form>`,
      );
    } else if (!refused) {
      const offering = await managedOffering(deps, managed);
      const day = query.day && /^\d{4}-\d{2}-\d{2}$/.test(query.day) ? query.day : dayOf(booking.startTime, workspace.timezone);
      let times: string[] = [];
      try {
        if (offering) times = await availableSlots(deps, workspace, offering, parseCalendarDate('day', day).toString());
      } catch {
        times = [];
      }
      parts.push(
        html`<h2>${t('moveHeading')}</h2>`,
        html`<form method="get" action="${base}"><label for="day">${t('day')}</label><input id="day" name="day" type="date" value="${day}" required><button type="submit">${t('showTimes')}</button></form>`,
      );
      if (times.length === 0) parts.push(html`<p>${t('noTimes')}</p>`);
      else {
        parts.push(html`<p class="zone">${t('timesIn', { zone: workspace.timezone })}</p>`);
        const instants = times.map((time) => Temporal.PlainDateTime.from(`${day}T${time}`).toZonedDateTime(workspace.timezone).toInstant().toString());
        parts.push(
          html`<form method="get" action="${base}"><input type="hidden" name="day" value="${day}"><div class="times">${times.map((_, i) => html`<button type="submit" name="move" value="${instants[i]!}">${at(Date.parse(instants[i]!)).time}</button>`)}</div></form>`,
        );
      }
      parts.push(
        html`<h2>${t('cancelHeading')}</h2>`,
        booking.seriesId
          ? html`<form method="get" action="${base}"><div class="buttons"><button type="submit" name="confirm" value="cancel">${t('cancelThisOne')}</button><button type="submit" name="confirm" value="cancel-later">${t('cancelLater')}</button></div></form>`
          : html`<form method="get" action="${base}"><input type="hidden" name="confirm" value="cancel"><button type="submit">${t('cancelButton')}</button></form>`,
      );
    }
    parts.push(html`</main>`);
    return linkPageResponse(
      layout({ title: t('title'), lang: workspace.language, brandColor: workspace.primaryColor, noindex: true, body: linkPageBody(parts) }),
    );
  }

  /** After a form post: back to the page (303), with what happened or what went wrong. */
  function afterForm(token: string, work: () => Promise<unknown>, done: string): Promise<Response> {
    const base = `/manage/${encodeURIComponent(token)}`;
    return afterLinkForm(
      base,
      async () => {
        await work();
        return `${base}?done=${done}`;
      },
      () => renderPage(token, {}),
    );
  }

  // The token is the credential: guesses count against the client address like failed API keys (docs/contract/limits.md).
  const hidden = { openAccess: openRoute('v1'), detail: { hide: true } } as const;
  return new Elysia({ name: 'manage' })
    .use(accessDeclarations)
    .get('/manage/:token', ({ params, query }) => renderPage(params.token, query as Record<string, string>), { params: TokenParams, ...hidden })
    .post(
      '/manage/:token/cancel',
      ({ params, body }) =>
        afterForm(
          params.token,
          () => cancelManaged(deps, params.token, body?.reason || undefined, body?.scope),
          body?.scope === 'later' ? 'cancelled-later' : 'cancelled',
        ),
      { params: TokenParams, body: t.Optional(CancelForm), ...hidden },
    )
    .post('/manage/:token/reschedule', ({ params, body }) => afterForm(params.token, () => rescheduleManaged(deps, params.token, body.date), 'rescheduled'), {
      params: TokenParams,
      body: RescheduleForm,
      ...hidden,
    })
    .get(
      '/manage/:token/booking.ics',
      async ({ params }) => {
        const managed = await openManagedBooking(deps, params.token);
        return new Response(bookingCalendar(managed, `${deps.config.SVC_PUBLIC_URL}/manage/${params.token}`, deps.config.SVC_PUBLIC_URL, deps.clock.now()), {
          headers: {
            'content-type': 'text/calendar; charset=utf-8',
            'content-disposition': `attachment; filename="booking-${managed.booking.id}.ics"`,
            'cache-control': 'no-store',
            'referrer-policy': 'no-referrer',
          },
        });
      },
      { params: TokenParams, ...hidden },
    )
    .get('/api/manage/:token', async ({ params }) => ({ success: true, booking: managedJson(await openManagedBooking(deps, params.token)) }), {
      params: TokenParams,
      response: { 200: ManageResponse, 404: ErrorResponse },
      ...hidden,
    })
    .post(
      '/api/manage/:token/cancel',
      async ({ params, body }) => ({ success: true, booking: await cancelManaged(deps, params.token, body?.reason, body?.scope) }),
      {
        params: TokenParams,
        body: t.Optional(CancelForm),
        response: { 200: ManageResponse, 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
        ...hidden,
      },
    )
    .post('/api/manage/:token/reschedule', async ({ params, body }) => ({ success: true, booking: await rescheduleManaged(deps, params.token, body.date) }), {
      params: TokenParams,
      body: RescheduleForm,
      response: { 200: ManageResponse, 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
      ...hidden,
    });
}
