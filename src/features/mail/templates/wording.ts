/** What a mail says, in one language: the words of every mail kind, with the booking's values filled in. */
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
}

export interface KindWording {
  subject: (v: MailValues) => string;
  heading: (v: MailValues) => string;
  /** paragraphs after the greeting */
  body: (v: MailValues) => string[];
}

export interface Wording {
  greeting: (customer: string | null) => string;
  labels: { service: string; with: string; date: string; time: string; amount: string; previously: string; reason: string };
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
}
