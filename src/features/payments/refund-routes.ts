import { Elysia } from 'elysia';
import { accessDeclarations } from '../../platform/access/macro.ts';
import { CAPABILITIES } from '../../platform/access/capabilities.ts';
import { keyOrSession } from '../../platform/access/policy.ts';
import type { AppDeps } from '../../platform/app-deps.ts';
import { keyedPaymentWriteErrors } from '../../core/models.ts';
import { BookingParams } from './refund-params.ts';
import { refundBooking, RefundBody, RefundResponse } from './refunds.ts';

/**
 * `POST /api/v1/workspaces/{slug}/bookings/{bookingId}/refund` (docs/contract/payments.md §10). A refund moves
 * money out of the business: a panel session needs both svc_manage_operations and svc_manage_settings.
 */
export function refundRoutes(deps: AppDeps) {
  return new Elysia({ name: 'refunds', prefix: '/workspaces' }).use(accessDeclarations).post(
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
