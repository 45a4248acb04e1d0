import { expect, test } from 'bun:test';
import {
  bookingRequest,
  daysRequest,
  initialState,
  next,
  offeredServices,
  previousStep,
  providerChoice,
  slotsRequest,
  type FlowState,
} from '../../web/widget/machine.ts';
import type { WidgetConfig } from '../../src/core/widget-protocol.ts';

/* data-provider (docs/contract/widget.md) limits the widget to that provider: only the services she gives are offered. */

const service = (id: string, providerIds: string[]) => ({
  id,
  name: id,
  description: null,
  duration: 30,
  price: 0,
  currency: 'EUR',
  depositAmount: null,
  repeatable: false,
  providerIds,
});

const CONFIG: WidgetConfig = {
  success: true,
  workspace: {
    id: 'ws_1',
    name: 'Acme',
    slug: 'acme',
    primaryColor: null,
    timezone: 'Europe/Berlin',
    language: 'en',
    locale: 'en',
    timeFormat: '24h',
    currency: 'EUR',
    logoUrl: null,
  },
  customFields: [],
  services: [service('srv_both', ['prv_alex', 'prv_sam']), service('srv_alex', ['prv_alex']), service('srv_sam', ['prv_sam'])],
  providers: [
    { id: 'prv_alex', name: 'Alex' },
    { id: 'prv_sam', name: 'Sam' },
  ],
  booking: { allowed: true, captcha: null, onlinePayment: false },
};

const loaded = (options: Parameters<typeof initialState>[0], config: WidgetConfig = CONFIG): FlowState =>
  next(initialState(options), { type: 'configLoaded', config, today: '2026-11-23' });

test("without data-provider every service is offered; with it only that provider's, in config order", () => {
  expect(offeredServices(CONFIG, null).map((one) => one.id)).toEqual(['srv_both', 'srv_alex', 'srv_sam']);
  expect(offeredServices(CONFIG, 'prv_sam').map((one) => one.id)).toEqual(['srv_both', 'srv_sam']);
});

test('data-provider: a service she does not give cannot be chosen, one she gives can', () => {
  const state = loaded({ providerId: 'prv_sam' });
  expect(state.step).toBe('service');
  expect(next(state, { type: 'chooseService', serviceId: 'srv_alex' })).toBe(state);
  const chosen = next(state, { type: 'chooseService', serviceId: 'srv_sam' });
  expect({ step: chosen.step, serviceId: chosen.serviceId, providerId: chosen.providerId }).toEqual({
    step: 'day',
    serviceId: 'srv_sam',
    providerId: 'prv_sam',
  });
});

test('data-provider with data-service of another provider shows her services; with her only service it starts at the day', () => {
  expect(loaded({ providerId: 'prv_sam', serviceId: 'srv_alex' })).toMatchObject({ step: 'service', serviceId: null });
  const only: WidgetConfig = { ...CONFIG, services: [service('srv_alex', ['prv_alex']), service('srv_sam', ['prv_sam'])] };
  const state = loaded({ providerId: 'prv_sam' }, only);
  expect({ step: state.step, serviceId: state.serviceId }).toEqual({ step: 'day', serviceId: 'srv_sam' });
  // and the day step has no way back to a service list of one
  expect(next(state, { type: 'back' })).toBe(state);
});

test('a data-provider the workspace does not list is dropped: every service is offered, booked with any provider', () => {
  const state = loaded({ providerId: 'prv_gone' });
  expect({ step: state.step, providerId: state.providerId }).toEqual({ step: 'service', providerId: null });
  expect(next(state, { type: 'chooseService', serviceId: 'srv_alex' })).toMatchObject({ step: 'day', serviceId: 'srv_alex', providerId: null });
});

/* The provider step (docs/contract/widget.md §4): a service several people give asks who, "Any available" by default. */

test('a service with two providers asks who, any available by default; one with a single provider goes straight to the days', () => {
  const state = loaded({});
  const asked = next(state, { type: 'chooseService', serviceId: 'srv_both' });
  expect({ step: asked.step, picked: asked.pickedProviderId }).toEqual({ step: 'provider', picked: null });
  expect(providerChoice(asked).map((one) => one.name)).toEqual(['Alex', 'Sam']);
  expect(previousStep(asked)).toBe('service');
  expect(next(state, { type: 'chooseService', serviceId: 'srv_alex' })).toMatchObject({ step: 'day', pickedProviderId: null });

  // any available: no providerId anywhere, svc assigns
  const anyone = next(asked, { type: 'chooseProvider', providerId: null });
  expect(anyone.step).toBe('day');
  expect(daysRequest(anyone)).toEqual({ serviceId: 'srv_both', month: '2026-11', providerId: null });
});

test('a named provider is asked for in every availability request and the booking; back keeps the pick', () => {
  const asked = next(loaded({}), { type: 'chooseService', serviceId: 'srv_both' });
  // a provider who does not give the service cannot be picked
  expect(next(asked, { type: 'chooseProvider', providerId: 'prv_gone' })).toBe(asked);
  let state = next(asked, { type: 'chooseProvider', providerId: 'prv_sam' });
  expect(daysRequest(state)).toEqual({ serviceId: 'srv_both', month: '2026-11', providerId: 'prv_sam' });
  // a late answer for anyone (asked before the visitor went back and picked Sam) is dropped
  expect(next(state, { type: 'daysLoaded', serviceId: 'srv_both', month: '2026-11', providerId: null, days: ['2026-11-24'] })).toBe(state);
  state = next(state, { type: 'daysLoaded', serviceId: 'srv_both', month: '2026-11', providerId: 'prv_sam', days: ['2026-11-24'] });
  state = next(state, { type: 'chooseDay', day: '2026-11-24' });
  expect(slotsRequest(state)).toEqual({ serviceId: 'srv_both', day: '2026-11-24', providerId: 'prv_sam' });
  state = next(state, { type: 'slotsLoaded', day: '2026-11-24', providerId: 'prv_sam', slots: ['10:00'] });
  state = next(state, { type: 'chooseTime', time: '10:00' });
  state = next(next(state, { type: 'edit', field: 'name', value: 'Ida' }), { type: 'edit', field: 'email', value: 'ida@example.com' });
  expect(bookingRequest(state)).toMatchObject({ serviceId: 'srv_both', providerId: 'prv_sam', date: '2026-11-24T10:00:00+01:00' });

  const back = next(next(next(state, { type: 'back' }), { type: 'back' }), { type: 'back' });
  expect({ step: back.step, picked: back.pickedProviderId }).toEqual({ step: 'provider', picked: 'prv_sam' });
  expect(next(back, { type: 'chooseProvider', providerId: null }).pickedProviderId).toBeNull();
  // another service she gives keeps her; one she does not give starts again at any available
  const service = next(back, { type: 'back' });
  expect(service.step).toBe('service');
  expect(next(service, { type: 'chooseService', serviceId: 'srv_alex' })).toMatchObject({ step: 'day', pickedProviderId: null });
});

test('data-provider never asks; a workspace whose only service has two providers starts at the provider step', () => {
  expect(next(loaded({ providerId: 'prv_sam' }), { type: 'chooseService', serviceId: 'srv_both' }).step).toBe('day');
  const only = loaded({}, { ...CONFIG, services: [service('srv_both', ['prv_alex', 'prv_sam'])] });
  expect({ step: only.step, serviceId: only.serviceId }).toEqual({ step: 'provider', serviceId: 'srv_both' });
  expect(previousStep(only)).toBeNull();
  expect(previousStep(next(only, { type: 'chooseProvider', providerId: null }))).toBe('provider');
  // data-service of a service with two providers starts there too
  expect(loaded({ serviceId: 'srv_both' }).step).toBe('provider');
});

test('back from the checkout, a booking held for its payment is shown again even where the provider step comes first', () => {
  const state = loaded({ serviceId: 'srv_both' });
  expect(state.step).toBe('provider');
  const booking = {
    id: 'bkg_1',
    startTime: '2026-11-24T09:00:00.000Z',
    endTime: '2026-11-24T09:30:00.000Z',
    status: 'PENDING' as const,
    customerName: 'Ole',
    customerEmail: 'ole@example.com',
    serviceName: 'srv_both',
    providerName: 'Sam',
    amount: 0,
    serviceId: 'srv_both',
    providerId: 'prv_sam',
  };
  expect(next(state, { type: 'resume', booking, checkoutUrl: 'https://pay.example/chk_1', manageUrl: null }).step).toBe('redirecting');
  // left to its hold: a new booking starts at the service list (the workspace has three)
  const held = next(state, { type: 'resume', booking, checkoutUrl: 'https://pay.example/chk_1', manageUrl: null });
  expect(next(held, { type: 'dismissHeld' }).step).toBe('service');
});
