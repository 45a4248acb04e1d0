import { Elysia, t } from 'elysia';
import { accessDeclarations } from '../../platform/access/macro.ts';
import { openRoute } from '../../platform/access/policy.ts';
import type { AppDeps } from '../../platform/app-deps.ts';
import { readLimitedText } from '../../platform/http/body-limit.ts';
import { AppError, notFound } from '../../core/errors.ts';
import { applyPaymentEvent, findCheckout, type PaymentContext } from './service.ts';
import { manageUrl, openManageToken } from '../../platform/access/manage-token.ts';
import { checkoutResponse, checkoutState, holdOver, renderCheckoutPage, renderLeftCheckoutPage } from './pages.ts';

const seeOther = (location: string) => new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });

const CheckoutParams = t.Object({ id: t.String({ minLength: 1, maxLength: 255, description: 'checkout id' }) });
const ProviderParams = t.Object({ provider: t.String({ minLength: 1, maxLength: 32 }) });
const StripeReturnQuery = t.Object({ session_id: t.String({ minLength: 1, maxLength: 255, description: 'the Checkout Session id Stripe fills in' }) });
const MollieReturnQuery = t.Object({ id: t.String({ minLength: 1, maxLength: 255, description: 'the Mollie payment id (tr_…) svc put into redirectUrl' }) });

/**
 * Payment routes at the application root (docs/contract/payments.md), outside /api/v1 and its OpenAPI document:
 *
 * - `POST /api/payments/{provider}/webhook`: the provider's callbacks (Stripe: `/api/payments/stripe/webhook`).
 *   The raw body is verified by the adapter (400 VALIDATION_ERROR, nothing changed, when the signature is missing
 *   or wrong), then applied; the answer is 200 `{ success: true, result }` with result `confirmed`, `paid`,
 *   `refund_due`, `closed`, `unchanged` (a repeat), `ignored` (an event type svc does not use) or `unknown` (no
 *   checkout of ours has that reference: logged at warn and acknowledged, since a refusal would only make the
 *   provider retry for days). Any other provider than the configured one is 404.
 * - SVC_PAYMENTS=test: the hosted checkout `GET /checkout/{id}` with Pay and Cancel (forms POSTing to
 *   `/checkout/{id}/pay` and `/checkout/{id}/cancel`, each answering 303 to `/checkout/{id}/done` or
 *   `/checkout/{id}/cancelled`). Pay after the hold ran out closes the checkout as expired instead.
 * - SVC_PAYMENTS=stripe: `GET /checkout/stripe/done?session_id=…` (Checkout's success_url) and
 *   `GET /checkout/stripe/cancelled` (its cancel_url).
 * - SVC_PAYMENTS=mollie: `GET /checkout/mollie/done?id=tr_…` (the payment's redirectUrl). Mollie's webhook carries
 *   only `id=tr_…` and no signature; the adapter fetches the payment back from Mollie before anything changes.
 *
 * These routes are registered before the JSON body parser (see src/app.ts) and declare `parse: 'none'`: the
 * webhook needs the exact bytes Stripe signed, and the forms carry no body. Errors use the contract's body; an
 * unknown checkout id is 404 NOT_FOUND.
 */
export function paymentRoutes(deps: AppDeps) {
  const provider = deps.payments.name;
  /** The booking's manage page, opened from its sealed token; null without SVC_SECRET or for another secret's token. */
  const manageLink = async ({ booking }: PaymentContext) => {
    const secret = deps.config.SVC_SECRET;
    const token = booking.manageTokenSealed && secret ? await openManageToken(booking.manageTokenSealed, secret, booking.id) : null;
    return token ? manageUrl(deps.config.SVC_PUBLIC_URL, token) : null;
  };
  /** The stored reference of the checkout an address names (the test page's id is kept only as its hash); for applyPaymentEvent. */
  const referenceOf = (checkoutId: string) => deps.payments.checkoutReference?.(checkoutId) ?? checkoutId;
  const page = async (context: PaymentContext, checkoutId: string) =>
    checkoutResponse(
      renderCheckoutPage({
        state: checkoutState(context.payment, context.booking, deps.clock.now(), provider === 'test' ? 'test' : 'stripe'),
        workspace: context.workspace,
        booking: context.booking,
        serviceName: context.serviceName,
        payment: context.payment,
        checkoutId,
        test: provider === 'test',
        manageUrl: await manageLink(context),
        businessUrl: `${deps.config.SVC_PUBLIC_URL}/book/${encodeURIComponent(context.workspace.slug)}`,
      }),
    );
  /** After Pay or Cancel: the success page when the checkout ended paid, else the cancelled page. */
  const afterwards = async (id: string) => {
    const { payment } = await findCheckout(deps, id);
    return seeOther(`/checkout/${encodeURIComponent(id)}/${payment.status === 'paid' ? 'done' : 'cancelled'}`);
  };

  const routes = new Elysia({ name: 'payments' }).use(accessDeclarations).post(
    '/api/payments/:provider/webhook',
    async ({ params, request }) => {
      const verifyWebhook = deps.payments.verifyWebhook;
      if (params.provider !== provider || !verifyWebhook) throw notFound(`payment webhook for ${params.provider}`);
      const body = await readLimitedText(request);
      let verified;
      try {
        verified = await verifyWebhook({ body, headers: request.headers, receivedAt: deps.clock.now() });
      } catch (error) {
        if (error instanceof AppError) deps.logger.warn('payment webhook refused', { provider, error: error.message });
        throw error;
      }
      if ('unknown' in verified) {
        deps.logger.warn('payment webhook for an unknown payment; acknowledged and ignored', { provider, reason: verified.unknown });
        return { success: true, result: 'unknown' };
      }
      if ('ignored' in verified) {
        deps.logger.debug('payment webhook ignored', { provider, reason: verified.ignored });
        return { success: true, result: 'ignored' };
      }
      const { event } = verified;
      const settlement = await applyPaymentEvent(deps, event);
      if (settlement.result === 'unknown') {
        deps.logger.warn('payment webhook for an unknown checkout; acknowledged and ignored', { provider, outcome: event.outcome, reference: event.reference });
      } else {
        deps.logger.info('payment event applied', {
          provider,
          outcome: event.outcome,
          reference: event.reference,
          result: settlement.result,
          booking: settlement.payment.bookingId,
        });
      }
      return { success: true, result: settlement.result };
    },
    { params: ProviderParams, parse: 'none', openAccess: openRoute(), detail: { hide: true } },
  );

  // The checkout id is the capability to pay or cancel a hold: every request counts against the client address,
  // so ids cannot be guessed without limit (docs/contract/limits.md).
  const checkoutPage = { openAccess: openRoute('v1'), detail: { hide: true } } as const;
  if (provider === 'test') {
    return routes
      .get('/checkout/:id', async ({ params }) => page(await findCheckout(deps, params.id), params.id), {
        params: CheckoutParams,
        ...checkoutPage,
      })
      .post(
        '/checkout/:id/pay',
        async ({ params }) => {
          const { payment, booking } = await findCheckout(deps, params.id);
          // The test checkout ends with the hold, as a Stripe session does at expires_at: nothing is taken after it.
          const expired = payment.status === 'pending' && holdOver(booking, deps.clock.now());
          await applyPaymentEvent(deps, { outcome: expired ? 'expired' : 'paid', reference: referenceOf(params.id) });
          return afterwards(params.id);
        },
        { params: CheckoutParams, parse: 'none', ...checkoutPage },
      )
      .post(
        '/checkout/:id/cancel',
        async ({ params }) => {
          await findCheckout(deps, params.id);
          await applyPaymentEvent(deps, { outcome: 'cancelled', reference: referenceOf(params.id) });
          return afterwards(params.id);
        },
        { params: CheckoutParams, parse: 'none', ...checkoutPage },
      )
      .get('/checkout/:id/done', async ({ params }) => page(await findCheckout(deps, params.id), params.id), {
        params: CheckoutParams,
        ...checkoutPage,
      })
      .get('/checkout/:id/cancelled', async ({ params }) => page(await findCheckout(deps, params.id), params.id), {
        params: CheckoutParams,
        ...checkoutPage,
      });
  }
  if (provider === 'stripe') {
    return routes
      .get('/checkout/stripe/done', async ({ query }) => page(await findCheckout(deps, query.session_id), query.session_id), {
        query: StripeReturnQuery,
        ...checkoutPage,
      })
      .get('/checkout/stripe/cancelled', () => checkoutResponse(renderLeftCheckoutPage()), checkoutPage);
  }
  if (provider === 'mollie') {
    // Mollie returns the customer to one redirectUrl whatever happened; the page shows the payment's state.
    return routes.get('/checkout/mollie/done', async ({ query }) => page(await findCheckout(deps, query.id), query.id), {
      query: MollieReturnQuery,
      ...checkoutPage,
    });
  }
  return routes;
}
