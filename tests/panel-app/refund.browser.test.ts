import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { whenOf } from '../../web/panel/format.ts';
import { startPanelBrowserEnv, type PanelBrowserEnv } from '../panel/panel-browser-env.ts';
import { chromiumAvailable } from '../widget/browser-env.ts';
import { axeViolations } from '../widget/drive.ts';
import { api, berlin, freeDay, go, hostPage, signIn } from './support.ts';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;

/*
 * The booking details' Refund (docs/contract/payments.md §10) with SVC_PAYMENTS=test: a €35 haircut paid on svc's
 * own checkout page, refunded in part and then the rest from the panel.
 */
describeBrowser('Refund in the booking details in Chromium', () => {
  let env: PanelBrowserEnv;
  let paid: string;
  beforeAll(async () => {
    env = await startPanelBrowserEnv({ payments: 'test', config: { SVC_RATE_LIMIT: 2000 } });
    const haircut = await api(env, 'POST', '/services', { name: 'Haircut', duration: 30, price: 35, currency: 'EUR' });
    expect(haircut.status).toBe(200);
    const anna = await api(env, 'POST', '/providers', { name: 'Anna Schmidt', serviceIds: [haircut.body.service.id] });
    expect(anna.status).toBe(200);
    const { day, slots } = await freeDay(env, haircut.body.service.id, 2);
    const made = await api(env, 'POST', '/bookings', {
      serviceId: haircut.body.service.id,
      providerId: anna.body.provider.id,
      email: 'rita@example.com',
      name: 'Rita Vogel',
      date: berlin(day, slots.at(-1)!),
    });
    expect(made.status).toBe(200);
    paid = made.body.booking.id;
    const checkout = new URL(made.body.checkoutUrl as string);
    expect((await fetch(`${env.appUrl}${checkout.pathname}/pay`, { method: 'POST', body: new URLSearchParams(), redirect: 'manual' })).status).toBe(303);
    expect((await api(env, 'GET', `/bookings/${paid}`)).body.booking.payment).toMatchObject({ status: 'paid', paid: 35, refunded: 0 });
    env.hostPage('/operations-only', hostPage(env.appUrl, 'bookings', 'svc_manage_operations'));
  }, 60_000);
  afterAll(async () => {
    await env?.close();
  });

  test('a session with svc_manage_operations only is not offered Refund (the route asks for both capabilities)', async () => {
    const { page, errors, close } = await env.open({ viewport: { width: 1280, height: 1200 } });
    page.setDefaultTimeout(10_000);
    await page.goto(`${env.hostUrl}/operations-only`);
    const panel = page.frameLocator('iframe');
    await panel.getByRole('heading', { level: 2, name: 'Bookings' }).waitFor();
    await panel.getByRole('button', { name: /^Booking details: .*Rita Vogel/ }).click();
    // money is there to refund (the next test refunds it); the booking's own actions are there: the session may change bookings, only not give money back
    await panel.getByRole('button', { name: 'Cancel booking' }).waitFor();
    expect(await panel.locator('section.details').getByRole('button', { name: 'Refund', exact: true }).count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  }, 30_000);

  test('a paid booking is refunded in part (checked, then confirmed), then the rest; the details show what was refunded', async () => {
    const { page, errors, close } = await env.open({ viewport: { width: 1280, height: 1200 }, bypassCSP: true });
    page.setDefaultTimeout(10_000);
    await signIn(env, page);
    await go(page, 'Bookings');
    await page.getByRole('button', { name: /^Booking details: .*Rita Vogel/ }).click();
    const details = page.locator('section.details');
    expect(await details.locator('[data-payment]').textContent()).toBe('€35.00 paid');

    await details.getByRole('button', { name: 'Refund', exact: true }).click();
    const form = details.getByRole('form', { name: 'Refund' });
    const amount = form.getByLabel('Amount to refund');
    // prefilled with all that can be refunded
    expect(await amount.inputValue()).toBe('35.00');
    // more than was paid is refused in the panel, before anything is sent
    await amount.fill('35.01');
    await form.getByRole('button', { name: 'Continue' }).click();
    await details.getByText('Enter an amount greater than 0 and at most €35.00.').waitFor();
    expect(await amount.getAttribute('aria-invalid')).toBe('true');
    expect(await details.getByRole('alert').textContent()).toBe('Please check the highlighted fields.');
    await amount.fill('20');
    await form.getByRole('button', { name: 'Continue' }).click();
    await details.getByText('Refund €20.00 to the customer?').waitFor();
    // Cancel sends nothing
    await details.getByRole('button', { name: 'Cancel', exact: true }).click();
    await details.getByText('Refund €20.00 to the customer?').waitFor({ state: 'detached' });
    expect((await api(env, 'GET', `/bookings/${paid}`)).body.booking.payment.refunded).toBe(0);

    await details.getByRole('button', { name: 'Refund', exact: true }).click();
    await amount.fill('20,00');
    await form.getByRole('button', { name: 'Continue' }).click();
    await details.getByRole('button', { name: 'Confirm', exact: true }).click();
    await details.getByRole('status').filter({ hasText: '€20.00 refunded to the customer.' }).waitFor();
    expect(await details.locator('[data-refunded]').textContent()).toBe('€20.00');
    expect(await details.locator('[data-payment]').textContent()).toBe('€35.00 paid €20.00 refunded.');
    expect(await details.locator('[data-payment]').getAttribute('data-payment')).toBe('partially_refunded');
    expect((await api(env, 'GET', `/bookings/${paid}`)).body.booking.payment).toMatchObject({ status: 'partially_refunded', refunded: 20 });
    // each refund is listed with its amount, when it was asked for, and its state
    const refunds = details.locator('ul.refunds li');
    await details.getByRole('heading', { level: 4, name: 'Refunds' }).waitFor();
    await refunds.first().waitFor();
    expect(await refunds.count()).toBe(1);

    // the rest: the form now offers €15.00
    await details.getByRole('button', { name: 'Refund', exact: true }).click();
    expect(await amount.inputValue()).toBe('15.00');
    await env.screenshot(page, 'panel-booking-refund-form');
    expect(await axeViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Continue' }).click();
    await details.getByText('Refund €15.00 to the customer?').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await details.getByRole('button', { name: 'Confirm', exact: true }).click();
    await details.getByRole('status').filter({ hasText: '€15.00 refunded to the customer.' }).waitFor();
    expect(await details.locator('[data-refunded]').textContent()).toBe('€35.00');
    expect(await details.locator('[data-payment]').getAttribute('data-payment')).toBe('refunded');
    // both partial refunds are listed, oldest first, each with its own amount, date and state
    await refunds.nth(1).waitFor();
    const listed = await refunds.evaluateAll((items) =>
      items.map((item) => [item.querySelector('strong')?.textContent, item.querySelector('span.muted')?.textContent, item.getAttribute('data-state')]),
    );
    const asked = (await api(env, 'GET', `/bookings/${paid}/refunds`)).body.refunds as { id: string; createdAt: string }[];
    expect(asked).toHaveLength(2);
    const { workspace } = (await api(env, 'GET', '')).body;
    expect(listed).toEqual([
      [`€20.00 on ${whenOf(workspace, asked[0]!.createdAt)}`, 'Refunded', 'succeeded'],
      [`€15.00 on ${whenOf(workspace, asked[1]!.createdAt)}`, 'Refunded', 'succeeded'],
    ]);
    // nothing left to refund: no Refund any more
    expect(await details.getByRole('button', { name: 'Refund', exact: true }).count()).toBe(0);
    expect((await api(env, 'GET', `/bookings/${paid}`)).body.booking.payment).toMatchObject({ status: 'refunded', paid: 35, refunded: 35 });
    expect((await env.deps.storage.listRefunds(paid)).map((refund) => [refund.amountMinor, refund.status, refund.provider])).toEqual([
      [2000, 'succeeded', 'test'],
      [1500, 'succeeded', 'test'],
    ]);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  }, 60_000);
});
