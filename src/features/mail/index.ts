/** The mail feature's public face: what other features and the composition use of it. */
export { calendarDocument, calendarUid } from './calendar.ts';
export type { CalendarEntry } from './calendar.ts';
export { mailEntries } from './outbox-entries.ts';
export { queueReminders } from './reminders.ts';
export { createMailSender } from './sender.ts';
export { sendWaitlistOffers } from './waitlist-offers.ts';
export type { MailSender, MailSenderOptions } from './sender.ts';
export { sendCalendarFailureMails } from './calendar-failure.ts';
