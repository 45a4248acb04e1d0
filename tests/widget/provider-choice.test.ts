import { expect, test } from 'bun:test';
import { initialState, next, offeredServices, type FlowState } from '../../web/widget/machine.ts';
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
