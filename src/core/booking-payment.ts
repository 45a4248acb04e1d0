import type { BookingStatus } from './lifecycle.ts';

/*
 * A booking's money as the customer and the owner see it (docs/contract/payments.md §9): what the service costs,
 * what was taken online, what is left for the appointment, what was given back. Pure, from the booking's own
 * columns, so the API, the webhooks, the pages and the mails all say the same.
 */

export type BookingPaymentStatus = 'none' | 'pending' | 'paid' | 'refunded' | 'partially_refunded';

/** Integer minor units of `currency`. */
export interface BookingPaymentView {
  currency: string;
  /** the service price when booked */
  totalMinor: number;
  /** what the provider took */
  paidMinor: number;
  /** the sum a pending checkout asks for (the deposit or the price); 0 unless status is `pending` */
  onlineMinor: number;
  /** what is left to pay at the appointment: total minus what was paid (or, while pending, is being paid) online */
  dueMinor: number;
  refundedMinor: number;
  status: BookingPaymentStatus;
}

/** The columns of a booking the view is made of. */
export interface BookingMoney {
  status: BookingStatus;
  amountMinor: number | null;
  currency: string | null;
  priceMinor: number | null;
  paidMinor: number;
  refundedMinor: number;
  holdExpiresAt: number | null;
}

/**
 * The payment of a booking, or null when there is no money in it (a free service, nothing paid). Status:
 * `refunded` when refunds reach what was paid, `partially_refunded` when some was given back, `paid` when
 * something was taken, `pending` while a PENDING booking waits for its checkout, else `none` (nothing online:
 * SVC_PAYMENTS=none, or a checkout that closed unpaid).
 */
export function bookingPayment(booking: BookingMoney): BookingPaymentView | null {
  if (booking.currency === null) return null;
  // Bookings kept before the price was stored: the sum due at booking is the best that is known.
  const totalMinor = Math.max(booking.priceMinor ?? booking.amountMinor ?? 0, booking.paidMinor);
  if (totalMinor === 0 && booking.paidMinor === 0) return null;
  const pending = booking.status === 'PENDING' && booking.holdExpiresAt !== null && booking.paidMinor === 0;
  const onlineMinor = pending ? (booking.amountMinor ?? 0) : 0;
  const status: BookingPaymentStatus =
    booking.refundedMinor > 0
      ? booking.refundedMinor >= booking.paidMinor
        ? 'refunded'
        : 'partially_refunded'
      : booking.paidMinor > 0
        ? 'paid'
        : pending
          ? 'pending'
          : 'none';
  return {
    currency: booking.currency,
    totalMinor,
    paidMinor: booking.paidMinor,
    onlineMinor,
    dueMinor: Math.max(0, totalMinor - booking.paidMinor - onlineMinor),
    refundedMinor: booking.refundedMinor,
    status,
  };
}

/** The words a payment line is made of, per language (the `payment` group of the pages catalogue). */
export interface PaymentWords {
  /** a deposit still to pay online, the rest at the appointment: "Deposit €20.00 now, €69.00 at the appointment" */
  depositNow: (v: { now: string; later: string }) => string;
  /** the whole price to pay online: "€89.00 now" */
  allNow: (v: { now: string }) => string;
  /** a deposit paid, the rest at the appointment */
  depositPaid: (v: { paid: string; later: string }) => string;
  /** everything paid */
  allPaid: (v: { paid: string }) => string;
  /** nothing online: everything at the appointment */
  allLater: (v: { later: string }) => string;
  /** appended when money was given back */
  refunded: (v: { refunded: string }) => string;
}

/**
 * One sentence for a booking's payment, in the words given, amounts written by `format` (minor units →
 * "€20.00"): "Deposit €20.00 now, €69.00 at the appointment". Null when there is no money in the booking.
 */
export function paymentLine(view: BookingPaymentView | null, words: PaymentWords, format: (minor: number) => string): string | null {
  if (!view) return null;
  let line: string;
  if (view.status === 'pending') {
    line =
      view.dueMinor > 0 ? words.depositNow({ now: format(view.onlineMinor), later: format(view.dueMinor) }) : words.allNow({ now: format(view.onlineMinor) });
  } else if (view.paidMinor > 0) {
    line =
      view.dueMinor > 0 ? words.depositPaid({ paid: format(view.paidMinor), later: format(view.dueMinor) }) : words.allPaid({ paid: format(view.paidMinor) });
  } else {
    line = words.allLater({ later: format(view.totalMinor) });
  }
  return view.refundedMinor > 0 ? `${line} ${words.refunded({ refunded: format(view.refundedMinor) })}` : line;
}
