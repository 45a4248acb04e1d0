import { Elysia, t } from 'elysia';
import { keyOrSession, openRoute } from '../../platform/access/policy.ts';
import { accessDeclarations } from '../../platform/access/macro.ts';
import type { AppDeps } from '../../platform/app-deps.ts';
import { translator } from '../../core/i18n/catalogue.ts';
import { html, type Html } from '../../platform/pages/html.ts';
import { layout } from '../../platform/pages/layout.ts';
import { afterLinkForm, linkNotFound, linkPageBody, linkPageHead, linkPageResponse } from '../../platform/pages/link-page.ts';
import type { CustomFieldRecord, WaitlistEntryRecord } from '../../ports/storage/index.ts';
import { ErrorResponse, SlugParams } from '../../core/models.ts';
import { DeletedResponse, OPEN_TO_DEMO } from '../workspaces/index.ts';
import {
  BookingResponse,
  claimWaitlistOffer,
  displayStart,
  entryByToken,
  fieldsFor,
  joinWaitlist,
  listWaitlist,
  removeWaitlistEntry,
  requireAnswersObject,
  toWaitlistJson,
  verifyCaptcha,
  WaitlistEntriesResponse,
  WaitlistEntryResponse,
  WaitlistJoin,
  WaitlistParams,
  WaitlistQuery,
} from '../bookings/index.ts';
import { answerInputs, answersFromForm, problemsByField, type FormState, type PostedForm } from './claim-form.ts';

const TokenParams = t.Object({ token: t.String({ minLength: 1, maxLength: 200 }) });
/** The JSON claim's body: the answers to the service's custom fields, as createBooking takes them. */
const ClaimBody = t.Object({
  customFields: t.Optional(t.Record(t.String(), t.Unknown(), { description: 'answers to the custom fields of the service, by key; unknown keys are ignored' })),
});
const TAGS = ['Waiting lists'];

/** v1 routes of waiting lists (docs/contract/classes.md §2). */
export function waitlistRoutes(deps: AppDeps) {
  return new Elysia({ name: 'waitlist', prefix: '/workspaces' })
    .use(accessDeclarations)
    .post(
      '/:slug/waitlist',
      async ({ body, principal }) => {
        // As createBooking: a widget call (no credential) proves it is a person.
        if (principal.kind === 'anonymous') await verifyCaptcha(deps.config, deps.logger, body.recaptchaToken, principal.workspace);
        const entry = await joinWaitlist(deps, principal.workspace, body);
        return { success: true, entry: toWaitlistJson(entry) };
      },
      {
        access: keyOrSession('svc_manage_operations', { keylessFromAllowedDomain: true, ...OPEN_TO_DEMO }),
        params: SlugParams,
        body: WaitlistJoin,
        response: { 200: WaitlistEntryResponse, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
        detail: {
          operationId: 'joinWaitlist',
          summary: 'Join the waiting list of a full time: with the API key, or keyless from an allowed widget domain',
          description:
            'For a service with `waitlist: true`. The entry is WAITING; when a seat of the time frees, the oldest entry is OFFERED and mailed a link '
            + 'to claim the seat, held for it for SVC_WAITLIST_HOLD_MINUTES. 409 SLOT_AVAILABLE when the time has a free seat (book it instead); '
            + '409 SLOT_UNAVAILABLE for a time that is not a start of the service, or past; 400 VALIDATION_ERROR for a service without a waiting list. '
            + 'Emits `waitlist.joined`.',
          tags: TAGS,
        },
      },
    )
    .get('/:slug/waitlist', async ({ principal, query }) => ({ success: true, entries: await listWaitlist(deps, principal.workspace, query) }), {
      access: keyOrSession('read'),
      params: SlugParams,
      query: WaitlistQuery,
      response: { 200: WaitlistEntriesResponse, 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse },
      detail: {
        operationId: 'listWaitlist',
        summary: 'Waiting-list entries, by time then by arrival (optionally of one service, one day)',
        tags: TAGS,
      },
    })
    .delete(
      '/:slug/waitlist/:entryId',
      async ({ principal, params }) => {
        await removeWaitlistEntry(deps, principal.workspace, params.entryId);
        return { success: true };
      },
      {
        access: keyOrSession('svc_manage_operations'),
        params: WaitlistParams,
        response: { 200: DeletedResponse, 401: ErrorResponse, 404: ErrorResponse },
        detail: {
          operationId: 'deleteWaitlistEntry',
          summary: 'Remove an entry; a seat its offer held goes to the next in line',
          tags: TAGS,
        },
      },
    );
}

/*
 * The offer link `{app_url}/waitlist/{token}`: a server-rendered page whose claim is a form (no script needed),
 * and the same over JSON at `{app_url}/api/waitlist/{token}`. The token is the only credential; the request log
 * redacts it (src/platform/http/request-log.ts). The claim asks the custom fields of the entry's service, as
 * createBooking does (docs/contract/classes.md §3).
 */
export function waitlistLinkRoutes(deps: AppDeps) {
  const notFound = () => {
    const t = translator('en', 'pages.waitlist');
    return linkNotFound({ notFoundTitle: t('notFoundTitle'), notFoundHeading: t('notFoundHeading'), notFoundLead: t('notFoundLead') });
  };
  /** The custom fields a claim of the entry answers. */
  const questionsOf = async (entry: WaitlistEntryRecord) => fieldsFor(await deps.storage.listCustomFields(entry.workspaceId), entry.serviceId);

  async function renderPage(token: string, query: { error?: string; booked?: string }, form: FormState | null = null): Promise<Response> {
    let entry;
    try {
      entry = await entryByToken(deps, token);
    } catch {
      return notFound();
    }
    const workspace = await deps.storage.getWorkspaceById(entry.workspaceId);
    const service = await deps.storage.getService(entry.workspaceId, entry.serviceId);
    if (!workspace) return notFound();
    const t = translator(workspace.language, 'pages.waitlist');
    const at = (instant: number) => displayStart(workspace, instant);
    const now = deps.clock.now();
    const open = entry.status === 'OFFERED' && (entry.offerExpiresAt ?? 0) > now;
    const status = entry.status === 'OFFERED' && !open ? 'EXPIRED' : entry.status;
    const parts: Html[] = [html`<main class="wrap narrow manage">`, linkPageHead(workspace.name, t('title'))];
    if (form) parts.push(html`<p class="notice" role="alert">${t('fixAnswers')}</p>`);
    else if (query.error) parts.push(html`<p class="notice" role="alert">${query.error}</p>`);
    if (query.booked) parts.push(html`<p class="notice" role="status">${t('booked')}</p>`);
    parts.push(
      html`<dl>`,
      html`<dt>${t('service')}</dt><dd>${service?.name ?? ''}</dd>`,
      html`<dt>${t('date')}</dt><dd>${at(entry.startTime).date}</dd>`,
      html`<dt>${t('time')}</dt><dd>${at(entry.startTime).time} – ${at(entry.endTime).time} (${workspace.timezone})</dd>`,
      html`<dt>${t('status')}</dt><dd>${t(`statuses.${status}`)}</dd>`,
      html`</dl>`,
    );
    if (open) {
      const until = `${at(entry.offerExpiresAt!).date}, ${at(entry.offerExpiresAt!).time} (${workspace.timezone})`;
      const questions = await questionsOf(entry);
      parts.push(
        html`<p>${t('heldUntil', { until })}</p>`,
        html`<form method="post" action="/waitlist/${encodeURIComponent(token)}/claim">${questions.length > 0 ? html`<p>${t('answersLead')}</p>` : ''}${answerInputs(questions, t, form)}<div class="buttons"><button type="submit" class="primary">${t('claim')}</button></div></form>`,
      );
    } else if (status === 'EXPIRED') {
      parts.push(html`<p class="notice">${t('lapsed')}</p>`);
    }
    parts.push(html`</main>`);
    const document = layout({ title: t('title'), lang: workspace.language, brandColor: workspace.primaryColor, noindex: true, body: linkPageBody(parts) });
    return linkPageResponse(document, form ? 400 : 200);
  }

  const hidden = { openAccess: openRoute('v1'), detail: { hide: true } } as const;
  return new Elysia({ name: 'waitlist-link' })
    .use(accessDeclarations)
    .get('/waitlist/:token', ({ params, query }) => renderPage(params.token, query as Record<string, string>), { params: TokenParams, ...hidden })
    .post(
      '/waitlist/:token/claim',
      ({ params, body }) => {
        const posted: PostedForm = typeof body === 'object' && body !== null ? (body as PostedForm) : {};
        let asked: { questions: CustomFieldRecord[]; answers: Record<string, unknown>; language: string } | null = null;
        return afterLinkForm(
          `/waitlist/${encodeURIComponent(params.token)}`,
          async () => {
            const entry = await entryByToken(deps, params.token);
            const questions = await questionsOf(entry);
            const answers = answersFromForm(questions, posted);
            asked = { questions, answers, language: (await deps.storage.getWorkspaceById(entry.workspaceId))?.language ?? 'en' };
            const claimed = await claimWaitlistOffer(deps, params.token, { customFields: answers });
            // Payment due: on to the checkout; else the booking's own page, where it can be managed.
            return claimed.checkoutUrl ?? claimed.manageUrl;
          },
          () => renderPage(params.token, {}),
          // answers missing or wrong: the form again, with what was typed and what is wrong with each
          (error) => {
            if (error.code !== 'VALIDATION_ERROR' || !asked) return null;
            const problems = problemsByField(error.details, asked.questions, asked.answers, translator(asked.language, 'pages.waitlist'));
            return renderPage(params.token, {}, { values: posted, problems });
          },
        );
      },
      { params: TokenParams, ...hidden },
    )
    .get('/api/waitlist/:token', async ({ params }) => ({ success: true, entry: toWaitlistJson(await entryByToken(deps, params.token)) }), {
      params: TokenParams,
      response: { 200: WaitlistEntryResponse, 404: ErrorResponse },
      ...hidden,
    })
    .post(
      '/api/waitlist/:token/claim',
      async ({ params, body }) => {
        const { booking, checkoutUrl, manageUrl } = await claimWaitlistOffer(deps, params.token, { customFields: body?.customFields });
        return { success: true, booking, checkoutUrl, manageUrl };
      },
      {
        params: TokenParams,
        body: t.Optional(ClaimBody),
        transform({ body }) {
          requireAnswersObject((body as { customFields?: unknown } | undefined)?.customFields);
        },
        response: { 200: BookingResponse, 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 502: ErrorResponse },
        ...hidden,
      },
    );
}
