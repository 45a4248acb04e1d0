import { afterEach, beforeEach, expect, test } from 'bun:test';
import { applyBookingMove, type BookingMove } from '../../src/features/bookings/booking-move.ts';
import { toBookingJson } from '../../src/features/bookings/service.ts';
import type { BookingRecord, PaymentRecord, ProviderRecord, ServiceRecord, Storage, WorkspaceRecord } from '../../src/ports/storage/index.ts';
import { aBooking, aPayment, aProvider, aService, aWebhook, aWorkspace } from '../storage/contract/fixtures.ts';
import { createTestDatabase, describeEachAdapter, type TestDatabase } from '../support/storage.ts';

/*
 * applyBookingMove, against each storage adapter: the status each move leaves, the events it writes (in the
 * lifecycle's order, in the move's transaction), refusals and lost races that write nothing, and atomicity.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Monday 2030-03-04 09:00 UTC, as the storage contract's fixtures */
const T0 = Date.parse('2030-03-04T09:00:00.000Z');
/** the fixtures' booking starts Tuesday 10:00 UTC */
const SLOT = T0 + 25 * HOUR;
const AFTER_END = SLOT + 2 * HOUR;
const DATABASE_TIMEOUT_MS = 30_000;

const json = (record: BookingRecord) => toBookingJson(record, { serviceName: 'Haircut', providerName: 'Alex' });
const anywhere = { margin: 0, fits: () => null };

describeEachAdapter('applyBookingMove', (adapter) => {
  let db: TestDatabase;
  let storage: Storage;
  let ws: WorkspaceRecord;
  let srv: ServiceRecord;
  let prv: ProviderRecord;

  beforeEach(async () => {
    db = await createTestDatabase(adapter);
    storage = db.storage;
    ws = aWorkspace();
    await storage.createWorkspace(ws);
    prv = aProvider(ws);
    await storage.createProvider(prv);
    srv = aService(ws, { providerIds: [prv.id] });
    await storage.createService(srv);
    // subscribed to every event: each event the move writes becomes one message
    await storage.createWebhook(aWebhook(ws));
  }, DATABASE_TIMEOUT_MS);
  afterEach(() => db.drop(), DATABASE_TIMEOUT_MS);

  /** Stores a booking without events, as an earlier move would have left it. */
  async function stored(overrides: Partial<BookingRecord>): Promise<BookingRecord> {
    const booking = aBooking(srv, prv, overrides);
    const result = await storage.reserveBooking({ booking, candidates: [prv.id], ...anywhere, emit: () => [] });
    if (!result.ok) throw new Error(`setup: ${result.reason}`);
    return result.booking;
  }

  /** The outbox, oldest first: [event type, the status of the booking the event carries]. */
  async function outbox(): Promise<[string, string][]> {
    const messages = await storage.claimDueMessages('inspector', AFTER_END + 365 * 24 * HOUR, AFTER_END + 366 * 24 * HOUR, 100);
    return messages.sort((a, b) => a.id.localeCompare(b.id)).map((message) => [message.eventType, JSON.parse(message.body).data.booking.status]);
  }

  const apply = (booking: BookingRecord, change: BookingMove, at = T0) =>
    applyBookingMove({ storage, config: { SVC_WAITLIST_HOLD_MINUTES: 60 } }, { workspace: ws, booking, json, at }, change);

  const moves: { rule: string; from: BookingRecord['status']; change: BookingMove; at?: number; status: string; events: string[]; reason?: string }[] = [
    {
      rule: 'confirm of a PENDING booking -> CONFIRMED with booking.confirmed',
      from: 'PENDING',
      change: { action: 'confirm' },
      status: 'CONFIRMED',
      events: ['booking.confirmed'],
    },
    {
      rule: 'cancel of a CONFIRMED booking -> CANCELLED with booking.cancelled and the reason kept',
      from: 'CONFIRMED',
      change: { action: 'cancel', reason: 'ill' },
      status: 'CANCELLED',
      events: ['booking.cancelled'],
      reason: 'ill',
    },
    {
      rule: 'cancel of a PENDING booking -> CANCELLED with booking.cancelled',
      from: 'PENDING',
      change: { action: 'cancel' },
      status: 'CANCELLED',
      events: ['booking.cancelled'],
    },
    {
      rule: 'expire of a PENDING hold -> CANCELLED with booking.cancelled',
      from: 'PENDING',
      change: { action: 'expire', reason: 'payment hold expired' },
      status: 'CANCELLED',
      events: ['booking.cancelled'],
      reason: 'payment hold expired',
    },
    {
      rule: 'complete of a CONFIRMED booking after its start -> COMPLETED with booking.completed',
      from: 'CONFIRMED',
      change: { action: 'complete' },
      at: AFTER_END,
      status: 'COMPLETED',
      events: ['booking.completed'],
    },
  ];
  for (const row of moves) {
    test(row.rule, async () => {
      const booking = await stored({ status: row.from });
      const result = await apply(booking, row.change, row.at);
      const expected = { ...booking, status: row.status, updatedAt: row.at ?? T0, cancelReason: row.reason ?? null, revision: 1 };
      expect(result).toEqual({ ok: true, booking: expected, events: row.events, payment: null } as never);
      expect(await storage.getBooking(ws.id, booking.id)).toEqual(expected as BookingRecord);
      expect(await outbox()).toEqual(row.events.map((type) => [type, row.status]));
    });
  }

  test('create inserts the booking on the first candidate that fits, with booking.created', async () => {
    const other = aProvider(ws, { name: 'Sam' });
    await storage.createProvider(other);
    const booking = aBooking(srv, { id: '' }, { status: 'PENDING' });
    const result = await apply(booking, {
      action: 'create',
      reservation: { candidates: [prv.id, other.id], margin: 0, fits: (id) => (id === prv.id ? 'Alex is away' : null) },
    });
    expect(result).toEqual({ ok: true, booking: { ...booking, providerId: other.id }, events: ['booking.created'], payment: null });
    expect(await storage.getBooking(ws.id, booking.id)).toEqual({ ...booking, providerId: other.id });
    expect(await outbox()).toEqual([['booking.created', 'PENDING']]);
  });

  test('create where no candidate fits -> unavailable with the reason; nothing written', async () => {
    const booking = aBooking(srv, { id: '' });
    const result = await apply(booking, { action: 'create', reservation: { candidates: [prv.id], margin: 0, fits: () => 'Alex is away' } });
    expect(result).toEqual({ ok: false, kind: 'unavailable', reason: 'Alex is away' });
    expect(await storage.getBooking(ws.id, booking.id)).toBeNull();
    expect(await outbox()).toEqual([]);
  });

  test('reschedule moves the times, keeps the status, emits booking.rescheduled', async () => {
    const booking = await stored({ status: 'PENDING' });
    const startTime = SLOT + HOUR;
    const result = await apply(booking, {
      action: 'reschedule',
      startTime,
      endTime: startTime + 30 * MINUTE,
      reservation: { candidates: [prv.id], ...anywhere },
    });
    const expected = { ...booking, startTime, endTime: startTime + 30 * MINUTE, updatedAt: T0, revision: 1 };
    expect(result).toEqual({ ok: true, booking: expected, events: ['booking.rescheduled'], payment: null });
    expect(await storage.getBooking(ws.id, booking.id)).toEqual(expected);
    expect(await outbox()).toEqual([['booking.rescheduled', 'PENDING']]);
  });

  test('pay of a PENDING booking -> CONFIRMED and the payment paid, payment.received before booking.confirmed', async () => {
    const booking = await stored({ status: 'PENDING', amountMinor: 3550, currency: 'EUR', holdExpiresAt: T0 + HOUR });
    const payment = aPayment(booking);
    await storage.createPayment(payment);
    const result = await apply(booking, { action: 'pay', payment: { payment, from: 'pending', to: { status: 'paid' } } });
    const paid: PaymentRecord = { ...payment, status: 'paid', updatedAt: T0 };
    expect(result).toEqual({
      ok: true,
      // the sum paid is kept on the booking, in the same write (docs/decisions/0023-booking-keeps-its-money.md)
      booking: { ...booking, status: 'CONFIRMED', updatedAt: T0, revision: 1, paidMinor: 3550 },
      events: ['payment.received', 'booking.confirmed'],
      payment: paid,
    });
    expect(await storage.listPayments(booking.id)).toEqual([paid]);
    expect(await outbox()).toEqual([
      ['payment.received', 'CONFIRMED'],
      ['booking.confirmed', 'CONFIRMED'],
    ]);
  });

  test('pay of a CONFIRMED booking keeps it CONFIRMED and emits payment.received alone, with the payment', async () => {
    const booking = await stored({ status: 'CONFIRMED', amountMinor: 3550, currency: 'EUR' });
    const payment = aPayment(booking);
    await storage.createPayment(payment);
    const result = await apply(booking, { action: 'pay', payment: { payment, from: 'pending', to: { status: 'paid' } } });
    expect(result.ok && result.events).toEqual(['payment.received']);
    const messages = await storage.claimDueMessages('inspector', Number.MAX_SAFE_INTEGER - 1, Number.MAX_SAFE_INTEGER, 10);
    expect(messages.map((message) => JSON.parse(message.body).data.payment)).toEqual([
      { amount: 35.5, currency: 'EUR', provider: 'test', reference: payment.reference },
    ]);
  });

  test('expire with a payment closes the payment and cancels the hold in one write', async () => {
    const booking = await stored({ status: 'PENDING', amountMinor: 3550, currency: 'EUR', holdExpiresAt: T0 + HOUR });
    const payment = aPayment(booking);
    await storage.createPayment(payment);
    const result = await apply(booking, { action: 'expire', reason: 'payment failed', payment: { payment, from: 'pending', to: { status: 'failed' } } });
    expect(result.ok).toBe(true);
    expect((await storage.getBooking(ws.id, booking.id))?.status).toBe('CANCELLED');
    expect((await storage.listPayments(booking.id)).map((each) => each.status)).toEqual(['failed']);
    expect(await outbox()).toEqual([['booking.cancelled', 'CANCELLED']]);
  });

  const refusals: { rule: string; from: BookingRecord['status']; change: BookingMove; reason: string }[] = [
    { rule: 'confirm of a CANCELLED booking -> refused', from: 'CANCELLED', change: { action: 'confirm' }, reason: 'a CANCELLED booking cannot be confirmed' },
    { rule: 'cancel of a COMPLETED booking -> refused', from: 'COMPLETED', change: { action: 'cancel' }, reason: 'a COMPLETED booking cannot be cancelled' },
    { rule: 'expire of a CONFIRMED booking -> refused', from: 'CONFIRMED', change: { action: 'expire' }, reason: 'a CONFIRMED booking cannot be expired' },
    {
      rule: 'complete before the start -> refused',
      from: 'CONFIRMED',
      change: { action: 'complete' },
      reason: 'a booking that has not started yet cannot be completed (it starts at 2030-03-05T10:00:00.000Z)',
    },
    {
      rule: 'reschedule of a CANCELLED booking -> refused',
      from: 'CANCELLED',
      change: { action: 'reschedule', startTime: SLOT, endTime: SLOT + HOUR, reservation: { candidates: [], ...anywhere } },
      reason: 'a CANCELLED booking cannot be rescheduled',
    },
  ];
  for (const row of refusals) {
    test(`${row.rule}; nothing written`, async () => {
      const booking = await stored({ status: row.from });
      expect(await apply(booking, row.change)).toEqual({ ok: false, kind: 'refused', reason: row.reason });
      expect(await storage.getBooking(ws.id, booking.id)).toEqual(booking);
      expect(await outbox()).toEqual([]);
    });
  }

  test('a booking another writer moved since it was read -> stale; the other move stands and nothing is emitted', async () => {
    const read = await stored({ status: 'PENDING' });
    await storage.transitionBooking(ws.id, read.id, { from: ['PENDING'], to: 'CANCELLED', at: T0, emit: () => [] });
    expect(await apply(read, { action: 'confirm' })).toEqual({ ok: false, kind: 'stale', payment: null });
    expect((await storage.getBooking(ws.id, read.id))?.status).toBe('CANCELLED');
    expect(await outbox()).toEqual([]);
  });

  test('a payment already settled by a repeated event -> stale without a payment; the booking stays', async () => {
    const booking = await stored({ status: 'PENDING', amountMinor: 3550, currency: 'EUR' });
    const payment = aPayment(booking, { status: 'paid' });
    await storage.createPayment(payment);
    expect(await apply(booking, { action: 'pay', payment: { payment, from: 'pending', to: { status: 'paid' } } })).toEqual({
      ok: false,
      kind: 'stale',
      payment: null,
    });
    expect((await storage.getBooking(ws.id, booking.id))?.status).toBe('PENDING');
    expect(await outbox()).toEqual([]);
  });

  test('atomic: when building the events fails, the status change is rolled back too', async () => {
    const booking = await stored({ status: 'PENDING' });
    const failing = () => {
      throw new Error('event body could not be built');
    };
    const error = await applyBookingMove(
      { storage, config: { SVC_WAITLIST_HOLD_MINUTES: 60 } },
      { workspace: ws, booking, json: failing, at: T0 },
      { action: 'confirm' },
    ).catch((caught) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(await storage.getBooking(ws.id, booking.id)).toEqual(booking);
    expect(await outbox()).toEqual([]);
  });

  test('atomic: a payment and its booking move commit together or not at all', async () => {
    const booking = await stored({ status: 'PENDING', amountMinor: 3550, currency: 'EUR' });
    const payment = aPayment(booking);
    await storage.createPayment(payment);
    const failing = () => {
      throw new Error('event body could not be built');
    };
    const error = await applyBookingMove(
      { storage, config: { SVC_WAITLIST_HOLD_MINUTES: 60 } },
      { workspace: ws, booking, json: failing, at: T0 },
      { action: 'pay', payment: { payment, from: 'pending', to: { status: 'paid' } } },
    ).catch((caught) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(await storage.getBooking(ws.id, booking.id)).toEqual(booking);
    expect(await storage.listPayments(booking.id)).toEqual([payment]);
    expect(await outbox()).toEqual([]);
  });

  test('atomic: a new booking whose events fail is not kept', async () => {
    const booking = aBooking(srv, prv);
    const failing = () => {
      throw new Error('event body could not be built');
    };
    const error = await applyBookingMove(
      { storage, config: { SVC_WAITLIST_HOLD_MINUTES: 60 } },
      { workspace: ws, booking, json: failing, at: T0 },
      { action: 'create', reservation: { candidates: [prv.id], ...anywhere } },
    ).catch((caught) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(await storage.getBooking(ws.id, booking.id)).toBeNull();
  });
});
