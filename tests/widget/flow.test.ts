import { describe, expect, test } from 'bun:test';
import type { WidgetApi } from '../../web/widget/api.ts';
import { failureOf } from '../../web/widget/api.ts';
import { BookingFlow } from '../../web/widget/flow.ts';
import { bookingRequest, validate } from '../../web/widget/machine.ts';
import { monthWeeks, zonedDateTime, zonedInstant } from '../../web/widget/time.ts';
import type { WidgetBookingRequest, WidgetConfig } from '../../src/core/widget-protocol.ts';

const CONFIG: WidgetConfig = {
  success: true,
  workspace: {
    id: 'ws_1',
    name: 'Acme',
    slug: 'acme',
    primaryColor: '#0f766e',
    timezone: 'Europe/Berlin',
    language: 'en',
    locale: 'en',
    timeFormat: '24h',
    currency: 'EUR',
    logoUrl: null,
  },
  customFields: [
    { id: 'cf_1', key: 'allergies', label: 'Allergies', type: 'text', required: true, options: null, placeholder: null, order: 0, serviceIds: [] },
    { id: 'cf_2', key: 'guests', label: 'Guests', type: 'number', required: false, options: null, placeholder: null, order: 1, serviceIds: ['srv_b'] },
  ],
  services: [
    {
      id: 'srv_a',
      name: 'Haircut',
      description: null,
      duration: 30,
      price: 35,
      currency: 'EUR',
      depositAmount: null,
      repeatable: false,
      providerIds: ['prv_1'],
    },
    { id: 'srv_b', name: 'Colour', description: null, duration: 90, price: 89, currency: 'EUR', depositAmount: 20, repeatable: false, providerIds: ['prv_1'] },
  ],
  providers: [{ id: 'prv_1', name: 'Alex' }],
  booking: { allowed: true, captcha: null, onlinePayment: false },
};

/** A fake API that records what the flow asks and answers from `answers`. */
function fakeApi(overrides: Partial<WidgetApi> = {}) {
  const calls: string[] = [];
  const sent: WidgetBookingRequest[] = [];
  const api: WidgetApi = {
    config: async () => {
      calls.push('config');
      return CONFIG;
    },
    days: async (serviceId, from, to) => {
      calls.push(`days ${serviceId} ${from} ${to}`);
      return ['2027-03-26', '2027-03-28'];
    },
    slots: async (serviceId, date) => {
      calls.push(`slots ${serviceId} ${date}`);
      return ['09:00', '09:30'];
    },
    book: async (request) => {
      sent.push(request);
      return {
        ok: true,
        checkoutUrl: null,
        booking: {
          id: 'bk_1',
          startTime: '2027-03-28T07:00:00.000Z',
          endTime: '2027-03-28T07:30:00.000Z',
          status: 'CONFIRMED',
          customerName: 'Mia',
          customerEmail: 'mia@example.com',
          serviceName: 'Haircut',
          providerName: 'Alex',
          amount: 35,
          serviceId: 'srv_a',
          providerId: 'prv_1',
        },
      };
    },
    ...overrides,
  };
  return { api, calls, sent };
}

const NOW = Date.parse('2027-03-20T10:00:00Z');

async function flowAtDetails(overrides: Partial<WidgetApi> = {}) {
  const fake = fakeApi(overrides);
  const booked: unknown[] = [];
  const redirects: string[] = [];
  const flow = new BookingFlow(fake.api, {
    booked: (booking, checkoutUrl) => booked.push({ booking, checkoutUrl }),
    redirect: (url) => redirects.push(url),
    now: () => NOW,
  });
  await flow.start();
  flow.dispatch({ type: 'chooseService', serviceId: 'srv_a' });
  await flow.idle();
  flow.dispatch({ type: 'chooseDay', day: '2027-03-28' });
  await flow.idle();
  flow.dispatch({ type: 'chooseTime', time: '09:00' });
  return { flow, ...fake, booked, redirects };
}

describe('the booking flow as a state machine, without a browser', () => {
  test('service → day → time → details → done, one config request, days of the month, slots of the day', async () => {
    const { flow, calls, sent, booked } = await flowAtDetails();
    expect(flow.current.step).toBe('details');
    expect(calls).toEqual(['config', 'days srv_a 2027-03-01 2027-03-31', 'slots srv_a 2027-03-28']);
    for (const [field, value] of [
      ['name', 'Mia'],
      ['email', 'mia@example.com'],
      ['cf:allergies', 'none'],
    ] as const)
      flow.dispatch({ type: 'edit', field, value });
    flow.dispatch({ type: 'submit' });
    await flow.idle();
    expect(flow.current.step).toBe('done');
    // 2027-03-28 is the day Berlin moves to summer time: 09:00 there is +02:00
    expect(sent).toEqual([
      { serviceId: 'srv_a', email: 'mia@example.com', name: 'Mia', date: '2027-03-28T09:00:00+02:00', customFields: { allergies: 'none' } },
    ]);
    expect(booked).toHaveLength(1);
  });

  test('required fields are checked before sending: nothing is sent and each error names its field', async () => {
    const { flow, sent } = await flowAtDetails();
    flow.dispatch({ type: 'edit', field: 'email', value: 'not-an-email' });
    flow.dispatch({ type: 'submit' });
    await flow.idle();
    expect(sent).toEqual([]);
    expect(flow.current.errors).toEqual({ name: { id: 'required' }, email: { id: 'invalidEmail' }, 'cf:allergies': { id: 'required' } });
    flow.dispatch({ type: 'edit', field: 'name', value: 'Mia' });
    expect(flow.current.errors.name).toBeUndefined();
  });

  test('a 409 goes back to the times, reloads them and says the time was taken; typed data is kept', async () => {
    let slotCalls = 0;
    const { flow } = await flowAtDetails({
      slots: async () => {
        slotCalls++;
        return slotCalls === 1 ? ['09:00', '09:30'] : ['09:30'];
      },
      book: async () => ({ ok: false, failure: failureOf(409, { success: false, error: 'taken', code: 'SLOT_UNAVAILABLE' }) }),
    });
    for (const [field, value] of [
      ['name', 'Mia'],
      ['email', 'mia@example.com'],
      ['cf:allergies', 'none'],
    ] as const)
      flow.dispatch({ type: 'edit', field, value });
    flow.dispatch({ type: 'submit' });
    await flow.idle();
    expect(flow.current.step).toBe('time');
    expect(flow.current.notice).toEqual({ kind: 'taken' });
    expect(flow.current.slots).toEqual({ status: 'ready', value: ['09:30'] });
    expect(flow.current.form.name).toBe('Mia');
  });

  test('a network failure keeps the visitor on the form with everything typed, and a retry message', async () => {
    const { flow } = await flowAtDetails({ book: async () => ({ ok: false, failure: { kind: 'network' } }) });
    for (const [field, value] of [
      ['name', 'Mia'],
      ['email', 'mia@example.com'],
      ['cf:allergies', 'none'],
    ] as const)
      flow.dispatch({ type: 'edit', field, value });
    flow.dispatch({ type: 'submit' });
    await flow.idle();
    expect(flow.current.step).toBe('details');
    expect(flow.current.notice).toEqual({ kind: 'retry' });
    expect(flow.current.form).toEqual({
      name: 'Mia',
      email: 'mia@example.com',
      phone: '',
      notes: '',
      custom: { allergies: 'none' },
      repeat: '',
      every: '1',
      count: '4',
    });
    expect(flow.current.submitting).toBe(false);
  });

  test('a 400 with details puts each message next to its field', async () => {
    const { flow } = await flowAtDetails({
      book: async () => ({
        ok: false,
        failure: failureOf(400, {
          success: false,
          error: 'bad',
          code: 'VALIDATION_ERROR',
          details: [
            { path: '/customFields/allergies', message: 'customFields.allergies is too long' },
            { path: '/email', message: 'email must be an email address' },
          ],
        }),
      }),
    });
    for (const [field, value] of [
      ['name', 'Mia'],
      ['email', 'mia@example.com'],
      ['cf:allergies', 'x'],
    ] as const)
      flow.dispatch({ type: 'edit', field, value });
    flow.dispatch({ type: 'submit' });
    await flow.idle();
    expect(flow.current.errors).toEqual({ 'cf:allergies': { text: 'customFields.allergies is too long' }, email: { text: 'email must be an email address' } });
  });

  test('403 DOMAIN_NOT_ALLOWED says the site is not allowed; a checkoutUrl sends the visitor to pay', async () => {
    expect(failureOf(403, { success: false, error: 'no', code: 'DOMAIN_NOT_ALLOWED' })).toEqual({ kind: 'forbidden' });
    expect(failureOf(503, null)).toEqual({ kind: 'network' });
    expect(failureOf(429, { success: false, error: 'slow down', code: 'RATE_LIMITED' })).toEqual({ kind: 'network' });
    const { flow, redirects } = await flowAtDetails({
      book: async () => ({
        ok: true,
        checkoutUrl: 'https://pay.example/c/1',
        booking: {
          id: 'bk_2',
          startTime: '',
          endTime: '',
          status: 'PENDING',
          customerName: null,
          customerEmail: 'a@b.co',
          serviceName: null,
          providerName: null,
          amount: 35,
          serviceId: 'srv_a',
          providerId: 'prv_1',
        },
      }),
    });
    flow.dispatch({ type: 'prefill', values: { name: 'Mia', email: 'mia@example.com', customFields: { allergies: 'none' } } });
    flow.dispatch({ type: 'submit' });
    await flow.idle();
    expect(flow.current.step).toBe('redirecting');
    expect(redirects).toEqual(['https://pay.example/c/1']);
  });

  test('a site that is not allowed sees the message at once and cannot start a booking', async () => {
    const { api, calls } = fakeApi({ config: async () => ({ ...CONFIG, booking: { allowed: false, captcha: null, onlinePayment: false } }) });
    const flow = new BookingFlow(api, { booked() {}, redirect() {}, now: () => NOW });
    await flow.start();
    expect(flow.current.step).toBe('unavailable');
    flow.dispatch({ type: 'chooseService', serviceId: 'srv_a' });
    expect(flow.current.step).toBe('unavailable');
    // the overridden config() records nothing: no days or slots were asked for either
    expect(calls).toEqual([]);
  });

  test('custom fields follow the chosen service; numbers are sent as numbers', async () => {
    const { flow } = await flowAtDetails();
    const state = {
      ...flow.current,
      serviceId: 'srv_b',
      form: { name: 'M', email: 'm@example.com', phone: '', notes: '', custom: { allergies: 'no', guests: '2' }, repeat: '', every: '1', count: '4' },
    };
    expect(bookingRequest(state).customFields).toEqual({ allergies: 'no', guests: 2 });
    expect(validate({ ...state, form: { ...state.form, custom: { allergies: 'no', guests: 'two' } } })).toEqual({ 'cf:guests': { id: 'invalidNumber' } });
    expect(bookingRequest({ ...state, serviceId: 'srv_a' }).customFields).toEqual({ allergies: 'no' });
  });
});

describe('time-zone arithmetic on Intl (browsers without Temporal)', () => {
  test('a wall time becomes the instant Temporal gives, DST days included', () => {
    const cases: [string, string, string][] = [
      ['2027-03-28', '09:00', 'Europe/Berlin'],
      ['2027-03-28', '02:30', 'Europe/Berlin'],
      ['2027-10-31', '02:30', 'Europe/Berlin'],
      ['2027-03-14', '02:30', 'America/New_York'],
      ['2027-11-07', '01:30', 'America/New_York'],
      ['2027-01-05', '09:00', 'Asia/Kolkata'],
      ['2027-06-01', '23:45', 'Pacific/Chatham'],
      ['2027-04-04', '02:30', 'Australia/Sydney'],
    ];
    for (const [day, time, zone] of cases) {
      const expected = Temporal.PlainDateTime.from(`${day}T${time}`).toZonedDateTime(zone, { disambiguation: 'compatible' });
      expect({ day, time, zone, at: zonedInstant(day, time, zone).epochMs }).toEqual({ day, time, zone, at: expected.epochMilliseconds });
    }
    expect(zonedDateTime('2027-03-28', '09:00', 'Europe/Berlin')).toBe('2027-03-28T09:00:00+02:00');
    expect(zonedDateTime('2027-03-27', '09:00', 'Europe/Berlin')).toBe('2027-03-27T09:00:00+01:00');
    expect(zonedDateTime('2027-01-05', '09:00', 'Asia/Kolkata')).toBe('2027-01-05T09:00:00+05:30');
  });

  test('a month grid starts on Monday and pads with empty cells', () => {
    const weeks = monthWeeks('2027-03');
    expect(weeks[0]).toEqual(['2027-03-01', '2027-03-02', '2027-03-03', '2027-03-04', '2027-03-05', '2027-03-06', '2027-03-07']);
    expect(weeks.at(-1)).toEqual(['2027-03-29', '2027-03-30', '2027-03-31', null, null, null, null]);
  });
});
