/** The payments feature's public face: what other features and the composition use of it. */
export { paymentRoutes } from './routes.ts';
export { refundRoutes } from './refund-routes.ts';
export { refundBooking } from './refunds.ts';
