import { Elysia } from 'elysia';
import { accessDeclarations } from '../../platform/access/macro.ts';
import { CAPABILITIES } from '../../platform/access/capabilities.ts';
import { keyOrSession } from '../../platform/access/policy.ts';
import type { AppDeps } from '../../platform/app-deps.ts';
import { ErrorResponse, keyedPaymentWriteErrors } from '../../core/models.ts';
import { BookingParams } from './refund-params.ts';
import { listBookingRefunds, refundBooking, RefundBody, RefundListResponse, RefundResponse } from './refunds.ts';

/**
 * `POST /api/v1/workspaces/{slug}/bookings/{bookingId}/refund` (docs/contract/payments.md §10). A refund moves
 * money out of the business: a panel session needs both svc_manage_operations and svc_manage_settings.
 * `GET …/bookings/{bookingId}/refunds` lists them, for whoever may read the booking.
 */
export function refundRoutes(deps: AppDeps) {
  return new Elysia({ name: 'refunds', prefix: '/workspaces' })
    .use(accessDeclarations)
    .get(
      '/:slug/bookings/:bookingId/refunds',
      async ({ params, principal: { workspace } }) => ({
        success: true as const,
        refunds: await listBookingRefunds(deps, workspace, params.bookingId),
      }),
      {
        access: keyOrSession('read'),
        params: BookingParams,
        response: { 200: RefundListResponse, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
        detail: {
          operationId: 'listBookingRefunds',
          summary: "List a booking's refunds",
          description:
            'Every refund asked for on the booking, oldest first: amount (decimal major units), currency, status '
            + '(`succeeded`, `pending`, or `failed` when the provider refused it and nothing was refunded) and when it was asked for. '
            + 'The same access as reading the booking.',
          tags: ['Bookings'],
        },
      },
    )
    .post(
      '/:slug/bookings/:bookingId/refund',
      async ({ params, body, principal: { workspace } }) => ({
        success: true as const,
        ...(await refundBooking(deps, workspace, params.bookingId, body?.amount)),
      }),
      {
        access: keyOrSession(CAPABILITIES),
        params: BookingParams,
        body: RefundBody,
        response: { 200: RefundResponse, ...keyedPaymentWriteErrors },
        detail: {
          operationId: 'refundBooking',
          summary: 'Give back money paid for a booking',
          description:
            'Refunds `amount` (decimal major units; default: everything paid and not yet refunded) through the payment provider that took it, '
            + 'with the refund id as idempotency key. Sends `payment.refunded` and mails the customer. '
            + '400 VALIDATION_ERROR for more than can be refunded; 409 NOTHING_TO_REFUND when nothing was paid or everything was given back; '
            + '502 PAYMENT_PROVIDER_ERROR when the provider refuses (nothing is refunded then). '
            + 'A panel session needs both svc_manage_operations and svc_manage_settings.',
          tags: ['Bookings'],
        },
      },
    );
}
