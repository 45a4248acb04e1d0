/** What a mail is filled in with: the booking's values, already formatted in the workspace's language and zone. */
export interface MailValues {
  workspace: string;
  /** the customer's name, or null when the booking has none */
  customer: string | null;
  service: string;
  /** the date in the workspace's language and zone: "Tuesday, 1 December 2026" */
  date: string;
  /** "10:00 – 11:00 CET" */
  time: string;
  /** rescheduled: the old date and time */
  previous?: { date: string; time: string };
  /** pending awaiting payment: the amount ("€35.50") and the end of the hold ("10:30 CET") */
  amount?: string | null;
  holdUntil?: string | null;
  /** cancelled: the reason given, if any */
  reason?: string | null;
  /** refunded: the sum given back ("€20.00") */
  refund?: string | null;
}

export interface KindWording {
  subject: (v: MailValues) => string;
  heading: (v: MailValues) => string;
  /** paragraphs after the greeting */
  body: (v: MailValues) => string[];
}

/** The words of every mail, in one language: `de` must say everything `en` says (the compiler holds it). */
export interface MailMessages {
  greeting: (customer: string | null) => string;
  labels: { service: string; with: string; date: string; time: string; amount: string; payment: string; previously: string; reason: string; dates: string };
  /** a series' one mail: how many dates it covers */
  series: (count: number) => string;
  actions: { manage: string; view: string; pay: string };
  manageHint: (cancellationHours: number) => string;
  invite: string;
  footer: (workspace: string) => string;
  confirmed: KindWording;
  pendingPayment: KindWording;
  pendingConfirmation: KindWording;
  cancelled: KindWording;
  rescheduled: KindWording;
  reminder: KindWording;
  /** a seat held for a waiting-list entry (`holdUntil`: the end of the hold) */
  waitlistOffer: KindWording & { action: string; footer: (workspace: string) => string };
  refunded: KindWording;
  /** the owner's mails, to the workspace's notificationEmail */
  owner: OwnerWording;
  /** to the notificationEmail when a provider's calendar connection fails (docs/contract/calendars.md §8) */
  calendarFailed: CalendarFailedWording;
}

export interface CalendarFailedWording {
  subject: (v: { provider: string; calendar: string }) => string;
  heading: string;
  body: (v: { provider: string; calendar: string }) => string[];
  labels: { provider: string; calendar: string; problem: string };
  open: string;
}

export interface OwnerWording {
  greeting: string;
  labels: { customer: string; email: string; phone: string };
  /** a PENDING booking: what it waits for */
  waitsForConfirmation: string;
  waitsForPayment: string;
  open: string;
  footer: (workspace: string) => string;
  booked: KindWording;
  cancelled: KindWording;
  rescheduled: KindWording;
}

/** The mails in English (the `mail` namespace; the default for every language without its own catalogue). */
export const mail: MailMessages = {
  greeting: (customer) => (customer ? `Hello ${customer},` : 'Hello,'),
  labels: {
    service: 'Service',
    with: 'With',
    date: 'Date',
    time: 'Time',
    amount: 'Amount due',
    payment: 'Payment',
    previously: 'Previously',
    reason: 'Reason',
    dates: 'Dates',
  },
  series: (count) => `This covers ${count} weekly dates, all listed below.`,
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
  waitlistOffer: {
    subject: (v) => `A place is free: ${v.service} on ${v.date}`,
    heading: () => 'A place has freed up for you',
    body: (v) => [
      `A place of ${v.service} on ${v.date}, ${v.time} has freed up, and you are first on the waiting list.`,
      `It is held for you until ${v.holdUntil}. Book it with the link below; after that it goes to the next in line.`,
    ],
    action: 'Book this place',
    footer: (workspace) => `You get this email because you joined a waiting list of ${workspace}.`,
  },
  refunded: {
    subject: (v) => `Refund of ${v.refund}: ${v.service} on ${v.date}`,
    heading: () => 'Your money is on its way back',
    body: (v) => [
      `${v.workspace} has refunded ${v.refund} for your booking on ${v.date}, ${v.time}. It reaches your account the way you paid, usually within a few days.`,
    ],
  },
  owner: {
    greeting: 'Hello,',
    labels: { customer: 'Customer', email: 'Email', phone: 'Phone' },
    waitsForConfirmation: 'It waits for your confirmation.',
    waitsForPayment: 'It waits for the payment.',
    open: 'Open in the admin',
    footer: (workspace) => `You get this email because this address is set for the booking news of ${workspace}.`,
    booked: {
      subject: (v) => `New booking: ${v.service} on ${v.date}`,
      heading: () => 'New booking',
      body: (v) => [`${v.customer ?? 'A customer'} booked ${v.service} on ${v.date}, ${v.time}.`],
    },
    cancelled: {
      subject: (v) => `Cancelled by the customer: ${v.service} on ${v.date}`,
      heading: () => 'A customer cancelled',
      body: (v) => [`${v.customer ?? 'A customer'} cancelled ${v.service} on ${v.date}, ${v.time}. The time is free again.`],
    },
    rescheduled: {
      subject: (v) => `Moved by the customer: ${v.service} now on ${v.date}`,
      heading: () => 'A customer moved a booking',
      body: (v) => [`${v.customer ?? 'A customer'} moved ${v.service} to ${v.date}, ${v.time}.`],
    },
  },
  calendarFailed: {
    subject: (v) => `Calendar not syncing: ${v.calendar} (${v.provider})`,
    heading: 'A connected calendar is not syncing',
    body: (v) => [
      `svc could not read the calendar ${v.calendar} of ${v.provider}. Its appointments known so far still block times, but new ones are not seen until it syncs again.`,
      'Check the connection in the admin: a changed password or a withdrawn permission needs a new connection.',
    ],
    labels: { provider: 'Provider', calendar: 'Calendar', problem: 'Problem' },
    open: 'Open the providers in the admin',
  },
};
