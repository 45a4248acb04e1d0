import type { Wording } from './wording.ts';

/** The mails in English (the default for every language without its own file). */
export const en: Wording = {
  greeting: (customer) => (customer ? `Hello ${customer},` : 'Hello,'),
  labels: { service: 'Service', with: 'With', date: 'Date', time: 'Time', amount: 'Amount due', previously: 'Previously', reason: 'Reason' },
  actions: { manage: 'Cancel or reschedule', view: 'View booking', pay: 'Pay now' },
  manageHint: (hours) => `You can cancel or reschedule online until ${hours} ${hours === 1 ? 'hour' : 'hours'} before the start.`,
  invite: 'The attached calendar file adds the booking to your calendar and keeps it up to date.',
  footer: (workspace) => `You get this email because you booked with ${workspace}.`,
  confirmed: {
    subject: (v) => `Booking confirmed: ${v.service} on ${v.date}`,
    heading: () => 'Your booking is confirmed',
    body: (v) => [`${v.workspace} is expecting you on ${v.date}, ${v.time}.`],
  },
  pendingPayment: {
    subject: (v) => `Please complete your payment: ${v.service} on ${v.date}`,
    heading: () => 'Your time is reserved',
    body: (v) => [
      `We are holding ${v.date}, ${v.time} for you until ${v.holdUntil}. Your booking is confirmed once the payment of ${v.amount} has been received.`,
    ],
  },
  pendingConfirmation: {
    subject: (v) => `Booking request received: ${v.service} on ${v.date}`,
    heading: () => 'We have received your booking request',
    body: (v) => [`${v.workspace} will confirm your booking for ${v.date}, ${v.time} shortly. You will get another email then.`],
  },
  cancelled: {
    subject: (v) => `Booking cancelled: ${v.service} on ${v.date}`,
    heading: () => 'Your booking is cancelled',
    body: (v) => [`Your booking with ${v.workspace} on ${v.date}, ${v.time} has been cancelled.`],
  },
  rescheduled: {
    subject: (v) => `Booking moved: ${v.service} now on ${v.date}`,
    heading: () => 'Your booking has a new time',
    body: (v) => [`${v.workspace} is now expecting you on ${v.date}, ${v.time}.`],
  },
  reminder: {
    subject: (v) => `Reminder: ${v.service} on ${v.date}, ${v.time}`,
    heading: () => 'See you soon',
    body: (v) => [`This is a reminder of your booking with ${v.workspace} on ${v.date}, ${v.time}.`],
  },
};
