/** The webhooks feature's public face: what other features and the composition use of it. */
export { DELIVERY_TIMEOUT_MS } from './delivery.ts';
export { createDispatcher } from './dispatcher.ts';
export type { Dispatcher, DispatcherOptions } from './dispatcher.ts';
export { WEBHOOK_EVENTS } from './model.ts';
export { signalOutboxWrites } from './outbox-signal.ts';
export { webhookRoutes } from './routes.ts';
