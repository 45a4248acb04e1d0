/** The bookings feature's public face: what other features and the composition use of it. */
export { applyBookingMove } from './booking-move.ts';
export { Booking } from './model.ts';
export { paymentEvents } from './events.ts';
export { displayAmount, displayPayment, displayStart } from './payment-display.ts';
export { bookingRoutes } from './routes.ts';
export { changeStatus, rescheduleBooking, toBookingJson } from './service.ts';
export { cancelSeries, seriesAwaitingPayment, settleSeriesRest } from './series.ts';
export type { BookingNames } from './service.ts';
export { createCalendarWriter } from './calendar-writer.ts';
export type { CalendarWriterOptions } from './calendar-writer.ts';
export { verifyCaptcha } from './captcha.ts';
export { fieldsFor, requireAnswersObject } from './custom-field-answers.ts';
export { BookingResponse } from './model.ts';
export { claimWaitlistOffer } from './service.ts';
export {
  entryByToken,
  expireLapsedOffers,
  joinWaitlist,
  listWaitlist,
  offerWaitedTimes,
  openWaitlistToken,
  removeWaitlistEntry,
  toWaitlistJson,
} from './waitlist.ts';
export { WaitlistEntriesResponse, WaitlistEntry, WaitlistEntryResponse, WaitlistJoin, WaitlistParams, WaitlistQuery } from './waitlist-model.ts';
