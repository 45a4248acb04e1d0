/*
 * Bookings: filters and cursor paging (list.tsx), a booking's details (details.tsx: custom-field answers, amount
 * and payment state, the customer's mails and how sending them went, mails.tsx) with its actions (confirm, cancel
 * with a reason, move to a free time with slot-picker.tsx, complete), and a booking made by hand for a customer on
 * the phone (new-booking.tsx).
 */
export { Bookings } from './list.tsx';
