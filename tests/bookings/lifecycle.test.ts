import { describe, expect, test } from 'bun:test';
import {
  BOOKING_STATUSES,
  LIFECYCLE_ACTIONS,
  holdsSlot,
  initialStatus,
  isFinal,
  move,
  receivePayment,
  type BookingEventType,
  type BookingStatus,
  type LifecycleAction,
} from '../../src/core/lifecycle.ts';

const START = Date.parse('2026-12-01T09:00:00.000Z');
const END = Date.parse('2026-12-01T10:00:00.000Z');
const AFTER_START = Date.parse('2026-12-01T09:30:00.000Z');
const BEFORE_START = Date.parse('2026-11-30T12:00:00.000Z');

const booking = (status: BookingStatus) => ({ status, startTime: START, endTime: END });

type Allowed = { status: BookingStatus; events: BookingEventType[] };
type Cell = { from: BookingStatus; action: LifecycleAction; rule: string; expect: Allowed | { refused: string } };

/** Every status x action, written out by hand (not derived from the code under test). `now` is after the start. */
const TABLE: Cell[] = [
  // PENDING
  { from: 'PENDING', action: 'confirm', rule: 'confirm of a pending booking confirms it', expect: { status: 'CONFIRMED', events: ['booking.confirmed'] } },
  {
    from: 'PENDING',
    action: 'pay',
    rule: 'payment of a pending booking confirms it after payment.received',
    expect: { status: 'CONFIRMED', events: ['payment.received', 'booking.confirmed'] },
  },
  { from: 'PENDING', action: 'cancel', rule: 'cancel of a pending booking cancels it', expect: { status: 'CANCELLED', events: ['booking.cancelled'] } },
  { from: 'PENDING', action: 'expire', rule: 'expiry of a pending hold cancels it', expect: { status: 'CANCELLED', events: ['booking.cancelled'] } },
  { from: 'PENDING', action: 'complete', rule: 'complete of a pending booking is refused', expect: { refused: 'a PENDING booking cannot be completed' } },
  {
    from: 'PENDING',
    action: 'reschedule',
    rule: 'reschedule of a pending booking keeps it pending',
    expect: { status: 'PENDING', events: ['booking.rescheduled'] },
  },
  // CONFIRMED
  { from: 'CONFIRMED', action: 'confirm', rule: 'confirm of a confirmed booking is refused', expect: { refused: 'a CONFIRMED booking cannot be confirmed' } },
  { from: 'CONFIRMED', action: 'pay', rule: 'payment of a confirmed booking is refused', expect: { refused: 'a CONFIRMED booking cannot be paid' } },
  { from: 'CONFIRMED', action: 'cancel', rule: 'cancel of a confirmed booking cancels it', expect: { status: 'CANCELLED', events: ['booking.cancelled'] } },
  { from: 'CONFIRMED', action: 'expire', rule: 'expiry of a confirmed booking is refused', expect: { refused: 'a CONFIRMED booking cannot be expired' } },
  {
    from: 'CONFIRMED',
    action: 'complete',
    rule: 'complete of a started confirmed booking completes it',
    expect: { status: 'COMPLETED', events: ['booking.completed'] },
  },
  {
    from: 'CONFIRMED',
    action: 'reschedule',
    rule: 'reschedule of a confirmed booking keeps it confirmed',
    expect: { status: 'CONFIRMED', events: ['booking.rescheduled'] },
  },
  // CANCELLED (final)
  { from: 'CANCELLED', action: 'confirm', rule: 'confirm of a cancelled booking is refused', expect: { refused: 'a CANCELLED booking cannot be confirmed' } },
  { from: 'CANCELLED', action: 'pay', rule: 'payment of a cancelled booking is refused', expect: { refused: 'a CANCELLED booking cannot be paid' } },
  { from: 'CANCELLED', action: 'cancel', rule: 'cancel of a cancelled booking is refused', expect: { refused: 'a CANCELLED booking cannot be cancelled' } },
  { from: 'CANCELLED', action: 'expire', rule: 'expiry of a cancelled booking is refused', expect: { refused: 'a CANCELLED booking cannot be expired' } },
  { from: 'CANCELLED', action: 'complete', rule: 'complete of a cancelled booking is refused', expect: { refused: 'a CANCELLED booking cannot be completed' } },
  {
    from: 'CANCELLED',
    action: 'reschedule',
    rule: 'reschedule of a cancelled booking is refused',
    expect: { refused: 'a CANCELLED booking cannot be rescheduled' },
  },
  // COMPLETED (final)
  { from: 'COMPLETED', action: 'confirm', rule: 'confirm of a completed booking is refused', expect: { refused: 'a COMPLETED booking cannot be confirmed' } },
  { from: 'COMPLETED', action: 'pay', rule: 'payment of a completed booking is refused', expect: { refused: 'a COMPLETED booking cannot be paid' } },
  { from: 'COMPLETED', action: 'cancel', rule: 'cancel of a completed booking is refused', expect: { refused: 'a COMPLETED booking cannot be cancelled' } },
  { from: 'COMPLETED', action: 'expire', rule: 'expiry of a completed booking is refused', expect: { refused: 'a COMPLETED booking cannot be expired' } },
  { from: 'COMPLETED', action: 'complete', rule: 'complete of a completed booking is refused', expect: { refused: 'a COMPLETED booking cannot be completed' } },
  {
    from: 'COMPLETED',
    action: 'reschedule',
    rule: 'reschedule of a completed booking is refused',
    expect: { refused: 'a COMPLETED booking cannot be rescheduled' },
  },
];

describe('move: transition table', () => {
  test('the table covers every status x action exactly once', () => {
    const covered = TABLE.map((c) => `${c.from}/${c.action}`).sort();
    const all = BOOKING_STATUSES.flatMap((s) => LIFECYCLE_ACTIONS.map((a) => `${s}/${a}`)).sort();
    expect(covered).toEqual(all);
  });

  for (const cell of TABLE) {
    test(cell.rule, () => {
      const result = move(booking(cell.from), cell.action, AFTER_START);
      if ('refused' in cell.expect) expect(result).toEqual({ ok: false, reason: cell.expect.refused });
      else expect(result).toEqual({ ok: true, status: cell.expect.status, events: cell.expect.events });
    });
  }
});

describe('move: completion waits for the start', () => {
  test('complete of a confirmed booking before its start is refused, saying it has not started yet', () => {
    expect(move(booking('CONFIRMED'), 'complete', BEFORE_START)).toEqual({
      ok: false,
      reason: 'a booking that has not started yet cannot be completed (it starts at 2026-12-01T09:00:00.000Z)',
    });
  });

  test('complete one millisecond before the start is refused', () => {
    expect(move(booking('CONFIRMED'), 'complete', START - 1).ok).toBe(false);
  });

  test('complete exactly at the start is allowed', () => {
    expect(move(booking('CONFIRMED'), 'complete', START)).toEqual({ ok: true, status: 'COMPLETED', events: ['booking.completed'] });
  });

  test('complete after the end (the scheduler) is allowed', () => {
    expect(move(booking('CONFIRMED'), 'complete', END + 1)).toEqual({ ok: true, status: 'COMPLETED', events: ['booking.completed'] });
  });

  test('complete of a pending booking before its start names the status, not the time', () => {
    expect(move(booking('PENDING'), 'complete', BEFORE_START)).toEqual({ ok: false, reason: 'a PENDING booking cannot be completed' });
  });

  test('every action other than complete is decided the same before the start as after it', () => {
    for (const status of BOOKING_STATUSES) {
      for (const action of LIFECYCLE_ACTIONS) {
        if (action === 'complete') continue;
        expect(move(booking(status), action, BEFORE_START)).toEqual(move(booking(status), action, AFTER_START));
      }
    }
  });
});

describe('move: purity', () => {
  test('move does not change the booking it is given', () => {
    const current = booking('PENDING');
    const copy = { ...current };
    move(current, 'pay', AFTER_START);
    expect(current).toEqual(copy);
  });

  test('each result has its own events array', () => {
    const a = move(booking('PENDING'), 'pay', AFTER_START);
    const b = move(booking('PENDING'), 'pay', AFTER_START);
    if (!a.ok || !b.ok) throw new Error('expected both moves to be allowed');
    a.events.push('booking.created');
    expect(b.events).toEqual(['payment.received', 'booking.confirmed']);
  });
});

describe('receivePayment', () => {
  test('a payment of a PENDING booking confirms it after payment.received', () => {
    expect(receivePayment(booking('PENDING'), BEFORE_START)).toEqual({ ok: true, status: 'CONFIRMED', events: ['payment.received', 'booking.confirmed'] });
  });

  test('a payment of a booking confirmed by hand keeps it CONFIRMED and emits payment.received alone', () => {
    expect(receivePayment(booking('CONFIRMED'), BEFORE_START)).toEqual({ ok: true, status: 'CONFIRMED', events: ['payment.received'] });
  });

  test('a payment of a CANCELLED or COMPLETED booking is refused as pay is', () => {
    expect(receivePayment(booking('CANCELLED'), AFTER_START)).toEqual({ ok: false, reason: 'a CANCELLED booking cannot be paid' });
    expect(receivePayment(booking('COMPLETED'), AFTER_START)).toEqual({ ok: false, reason: 'a COMPLETED booking cannot be paid' });
  });
});

describe('initialStatus', () => {
  test('a due payment with a payment provider starts PENDING awaiting payment', () => {
    expect(initialStatus({ paymentDue: true, paymentsEnabled: true, requiresConfirmation: false })).toEqual({ status: 'PENDING', awaitingPayment: true });
  });

  test('a due payment with a payment provider awaits payment even when manual confirmation is required', () => {
    expect(initialStatus({ paymentDue: true, paymentsEnabled: true, requiresConfirmation: true })).toEqual({ status: 'PENDING', awaitingPayment: true });
  });

  test('manual confirmation without a due payment starts PENDING without checkout', () => {
    expect(initialStatus({ paymentDue: false, paymentsEnabled: true, requiresConfirmation: true })).toEqual({ status: 'PENDING', awaitingPayment: false });
  });

  test('a due payment without a payment provider and manual confirmation starts PENDING without checkout', () => {
    expect(initialStatus({ paymentDue: true, paymentsEnabled: false, requiresConfirmation: true })).toEqual({ status: 'PENDING', awaitingPayment: false });
  });

  test('a due payment without a payment provider starts CONFIRMED', () => {
    expect(initialStatus({ paymentDue: true, paymentsEnabled: false, requiresConfirmation: false })).toEqual({ status: 'CONFIRMED', awaitingPayment: false });
  });

  test('a free booking without manual confirmation starts CONFIRMED', () => {
    expect(initialStatus({ paymentDue: false, paymentsEnabled: true, requiresConfirmation: false })).toEqual({ status: 'CONFIRMED', awaitingPayment: false });
    expect(initialStatus({ paymentDue: false, paymentsEnabled: false, requiresConfirmation: false })).toEqual({ status: 'CONFIRMED', awaitingPayment: false });
  });
});

describe('isFinal and holdsSlot', () => {
  const expected: Record<BookingStatus, { final: boolean; holds: boolean }> = {
    PENDING: { final: false, holds: true },
    CONFIRMED: { final: false, holds: true },
    CANCELLED: { final: true, holds: false },
    COMPLETED: { final: true, holds: false },
  };

  for (const status of BOOKING_STATUSES) {
    const { final, holds } = expected[status];
    test(`a ${status} booking ${final ? 'is' : 'is not'} final and ${holds ? 'holds' : 'does not hold'} its slot`, () => {
      expect(isFinal(status)).toBe(final);
      expect(holdsSlot(status)).toBe(holds);
    });
  }

  test('a final status refuses every action', () => {
    for (const status of BOOKING_STATUSES.filter(isFinal)) {
      for (const action of LIFECYCLE_ACTIONS) expect(move(booking(status), action, AFTER_START).ok).toBe(false);
    }
  });
});
