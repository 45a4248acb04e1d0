/** The bookings feature's public face: what other features and the composition use of it. */
export { applyBookingMove } from './booking-move.ts';
export { Booking } from './model.ts';
export { paymentEvents } from './events.ts';
export { displayAmount, displayPayment, displayStart } from './payment-display.ts';
export { bookingRoutes } from './routes.ts';
export { changeStatus, rescheduleBooking, toBookingJson } from './service.ts';
export type { BookingNames } from './service.ts';
