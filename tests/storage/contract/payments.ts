import { describe, expect, test } from 'bun:test';
import { newId } from '../../../src/core/ids.ts';
import { UniqueViolation, type BookingRecord, type PaymentRecord, type RefundRecord } from '../../../src/ports/storage/index.ts';
import { MINUTE, HOUR, T0, SLOT, RACE_TIMEOUT_MS, aBooking, aWebhook, aPayment, anEvent, seed, book, dueMessages, caught, warm } from './fixtures.ts';
import { db, storage } from './database.ts';

/** PaymentStore: payments and the booking moves they cause. */
export function paymentsContract() {
  describe('payments', () => {
    test('createPayment stores the payment: getPaymentByReference and listPayments return it', async () => {
      const { srv, prv } = await seed(storage);
      const booking = await book(storage, aBooking(srv, prv, { status: 'PENDING' }));
      const otherBooking = await book(storage, aBooking(srv, prv, { startTime: SLOT + HOUR }));
      const first = aPayment(booking);
      const second = aPayment(booking, { provider: 'stripe', status: 'expired', refundDue: true, createdAt: T0 + 1, updatedAt: T0 + 2 });
      const unrelated = aPayment(otherBooking);
      for (const payment of [first, second, unrelated]) await storage.createPayment(payment);
      expect(await storage.getPaymentByReference('test', first.reference)).toEqual(first);
      expect(await storage.getPaymentByReference('stripe', second.reference)).toEqual(second);
      expect(await storage.getPaymentByReference('stripe', first.reference)).toBeNull();
      expect((await storage.listPayments(booking.id)).sort((a, b) => a.id.localeCompare(b.id))).toEqual(
        [first, second].sort((a, b) => a.id.localeCompare(b.id)),
      );
      expect(await storage.listPayments(otherBooking.id)).toEqual([unrelated]);
      expect(await storage.listPayments(newId('bk'))).toEqual([]);
    });

    test('a second payment with the same provider and reference -> UniqueViolation; the same reference at another provider is allowed', async () => {
      const { srv, prv } = await seed(storage);
      const booking = await book(storage, aBooking(srv, prv));
      const first = aPayment(booking, { reference: 'cs_shared' });
      await storage.createPayment(first);
      const duplicate = aPayment(booking, { reference: 'cs_shared', amountMinor: 1 });
      expect(await caught(storage.createPayment(duplicate))).toBeInstanceOf(UniqueViolation);
      expect(await storage.listPayments(booking.id)).toEqual([first]);
      const elsewhere = aPayment(booking, { reference: 'cs_shared', provider: 'stripe' });
      await storage.createPayment(elsewhere);
      expect(await storage.getPaymentByReference('stripe', 'cs_shared')).toEqual(elsewhere);
      expect(await storage.getPaymentByReference('test', 'cs_shared')).toEqual(first);
    });

    test('settlePayment moves a payment still in `from` and returns it, with booking null when no transition is given', async () => {
      const { ws, srv, prv } = await seed(storage);
      const booking = await book(storage, aBooking(srv, prv, { status: 'PENDING' }));
      const payment = aPayment(booking);
      await storage.createPayment(payment);
      const expected = { ...payment, status: 'failed' as const, updatedAt: T0 + MINUTE };
      expect(await storage.settlePayment(payment.id, 'pending', { status: 'failed' }, T0 + MINUTE)).toEqual({ payment: expected, booking: null });
      expect(await storage.getPaymentByReference(payment.provider, payment.reference)).toEqual(expected);
      expect(await storage.getBooking(ws.id, booking.id)).toEqual(booking);
    });

    test("settlePayment with a booking transition moves payment and booking in one step and writes the booking's events", async () => {
      const { ws, srv, prv } = await seed(storage);
      await storage.createWebhook(aWebhook(ws));
      const booking = await book(storage, aBooking(srv, prv, { status: 'PENDING', holdExpiresAt: T0 + HOUR }));
      const payment = aPayment(booking);
      await storage.createPayment(payment);
      const result = await storage.settlePayment(payment.id, 'pending', { status: 'paid' }, T0 + MINUTE, {
        workspaceId: ws.id,
        transition: {
          from: ['PENDING'],
          to: 'CONFIRMED',
          at: T0 + MINUTE,
          emit: (b) =>
            ['payment.received', 'booking.confirmed'].map((type) => ({ workspaceId: ws.id, type, body: `${type}:${b.status}`, occurredAt: T0 + MINUTE })),
        },
      });
      const paid = { ...payment, status: 'paid' as const, updatedAt: T0 + MINUTE };
      // the payment's amount is added to what the booking has been paid, in the same transaction
      const confirmed = { ...booking, status: 'CONFIRMED' as const, updatedAt: T0 + MINUTE, revision: 1, paidMinor: 3550 };
      expect(result).toEqual({ payment: paid, booking: confirmed });
      expect(await storage.getPaymentByReference(payment.provider, payment.reference)).toEqual(paid);
      expect(await storage.getBooking(ws.id, booking.id)).toEqual(confirmed);
      expect((await dueMessages(storage)).map((message) => message.body).sort()).toEqual(['booking.confirmed:CONFIRMED', 'payment.received:CONFIRMED']);
    });

    test('a repeated settlePayment -> null, and neither payment nor booking changes again nor are events written', async () => {
      const { ws, srv, prv } = await seed(storage);
      await storage.createWebhook(aWebhook(ws));
      const booking = await book(storage, aBooking(srv, prv, { status: 'PENDING' }));
      const payment = aPayment(booking);
      await storage.createPayment(payment);
      const settle = (at: number) =>
        storage.settlePayment(payment.id, 'pending', { status: 'paid' }, at, {
          workspaceId: ws.id,
          transition: { from: ['PENDING', 'CONFIRMED'], to: 'CONFIRMED', at, emit: () => [anEvent(ws, 'payment.received', at)] },
        });
      const first = await settle(T0 + MINUTE);
      expect(first?.payment.status).toBe('paid');
      expect(await settle(T0 + 2 * MINUTE)).toBeNull();
      expect(await storage.getPaymentByReference(payment.provider, payment.reference)).toEqual(first!.payment);
      expect(await storage.getBooking(ws.id, booking.id)).toEqual(first!.booking!);
      expect(await dueMessages(storage)).toHaveLength(1);
    });

    test("settlePayment whose booking is no longer in the transition's `from` settles the payment and returns booking null", async () => {
      const { ws, srv, prv } = await seed(storage);
      await storage.createWebhook(aWebhook(ws));
      const booking = await book(storage, aBooking(srv, prv, { status: 'CANCELLED', cancelReason: 'hold expired' }));
      const payment = aPayment(booking);
      await storage.createPayment(payment);
      const result = await storage.settlePayment(payment.id, 'pending', { status: 'paid', refundDue: true }, T0 + MINUTE, {
        workspaceId: ws.id,
        transition: { from: ['PENDING'], to: 'CONFIRMED', at: T0 + MINUTE, emit: () => [anEvent(ws, 'booking.confirmed')] },
      });
      const paid = { ...payment, status: 'paid' as const, refundDue: true, updatedAt: T0 + MINUTE };
      expect(result).toEqual({ payment: paid, booking: null });
      expect(await storage.getPaymentByReference(payment.provider, payment.reference)).toEqual(paid);
      // money taken for a cancelled booking still counts as paid: it is what a refund can give back
      expect(await storage.getBooking(ws.id, booking.id)).toEqual({ ...booking, paidMinor: 3550 });
      expect(await dueMessages(storage)).toEqual([]);
    });

    test('settlePayment of a payment not in `from` or unknown -> null and nothing changes', async () => {
      const { srv, prv } = await seed(storage);
      const booking = await book(storage, aBooking(srv, prv));
      const payment = aPayment(booking, { status: 'expired' });
      await storage.createPayment(payment);
      expect(await storage.settlePayment(payment.id, 'pending', { status: 'paid' }, T0 + MINUTE)).toBeNull();
      expect(await storage.settlePayment(newId('pay'), 'pending', { status: 'paid' }, T0 + MINUTE)).toBeNull();
      expect(await storage.getPaymentByReference(payment.provider, payment.reference)).toEqual(payment);
    });

    test(
      'of 10 concurrent settlePayment calls exactly one settles and moves the booking',
      async () => {
        const { ws, srv, prv } = await seed(storage);
        await storage.createWebhook(aWebhook(ws));
        const other = db.reopen();
        const booking = await book(storage, aBooking(srv, prv, { status: 'PENDING' }));
        const payment = aPayment(booking);
        await storage.createPayment(payment);
        await warm([storage, other]);
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            (i % 2 ? other : storage).settlePayment(payment.id, 'pending', { status: 'paid' }, T0 + i, {
              workspaceId: ws.id,
              transition: { from: ['PENDING'], to: 'CONFIRMED', at: T0 + i, emit: () => [anEvent(ws, 'payment.received')] },
            }),
          ),
        );
        const winners = results.filter((result) => result !== null);
        expect(winners).toHaveLength(1);
        expect(winners[0]!.booking?.status).toBe('CONFIRMED');
        expect(await dueMessages(storage)).toHaveLength(1);
      },
      RACE_TIMEOUT_MS,
    );

    const aRefund = (booking: BookingRecord, payment: PaymentRecord, overrides: Partial<RefundRecord> = {}): RefundRecord => ({
      id: newId('rf'),
      workspaceId: booking.workspaceId,
      bookingId: booking.id,
      paymentId: payment.id,
      provider: payment.provider,
      reference: null,
      amountMinor: 1000,
      currency: payment.currency,
      status: 'pending',
      createdAt: T0 + MINUTE,
      updatedAt: T0 + MINUTE,
      ...overrides,
    });

    /** A booking paid 3550 through a settled payment. */
    async function paidBooking() {
      const seeded = await seed(storage);
      const booking = await book(storage, aBooking(seeded.srv, seeded.prv));
      const payment = aPayment(booking);
      await storage.createPayment(payment);
      await storage.settlePayment(payment.id, 'pending', { status: 'paid' }, T0);
      return { ...seeded, booking: (await storage.getBooking(seeded.ws.id, booking.id))!, payment: { ...payment, status: 'paid' as const } };
    }

    test('reserveRefund records a pending refund and raises refundedMinor, never past paidMinor; listRefunds returns them oldest first', async () => {
      const { ws, booking, payment } = await paidBooking();
      expect(booking.paidMinor).toBe(3550);
      const first = aRefund(booking, payment, { amountMinor: 2000 });
      expect(await storage.reserveRefund(first)).toEqual({ ok: true, booking: { ...booking, refundedMinor: 2000, updatedAt: T0 + MINUTE } });
      const tooMuch = aRefund(booking, payment, { amountMinor: 1551 });
      expect(await storage.reserveRefund(tooMuch)).toEqual({ ok: false, refundable: 1550 });
      const rest = aRefund(booking, payment, { amountMinor: 1550, createdAt: T0 + 2 * MINUTE, updatedAt: T0 + 2 * MINUTE });
      expect((await storage.reserveRefund(rest)).ok).toBe(true);
      expect(await storage.listRefunds(booking.id)).toEqual([first, rest]);
      expect((await storage.getBooking(ws.id, booking.id))!.refundedMinor).toBe(3550);
      expect(await storage.reserveRefund(aRefund(booking, payment, { amountMinor: 1 }))).toEqual({ ok: false, refundable: 0 });
    });

    test('settleRefund: succeeded writes its events in the same transaction; failed gives the amount back; a repeat -> null', async () => {
      const { ws, booking, payment } = await paidBooking();
      await storage.createWebhook(aWebhook(ws));
      const refund = aRefund(booking, payment);
      await storage.reserveRefund(refund);
      const done = await storage.settleRefund(refund.id, { status: 'succeeded', reference: 're_1' }, T0 + 2 * MINUTE, {
        emit: (b) => [anEvent(ws, `payment.refunded:${b.refundedMinor}`, T0 + 2 * MINUTE)],
      });
      expect(done).toEqual({
        refund: { ...refund, status: 'succeeded', reference: 're_1', updatedAt: T0 + 2 * MINUTE },
        booking: { ...booking, refundedMinor: 1000, updatedAt: T0 + MINUTE },
      });
      expect((await dueMessages(storage)).map((message) => message.eventType)).toEqual(['payment.refunded:1000']);
      expect(await storage.settleRefund(refund.id, { status: 'failed', reference: null }, T0 + 3 * MINUTE)).toBeNull();

      const failing = aRefund(booking, payment, { amountMinor: 500 });
      await storage.reserveRefund(failing);
      expect((await storage.getBooking(ws.id, booking.id))!.refundedMinor).toBe(1500);
      const failed = await storage.settleRefund(failing.id, { status: 'failed', reference: null }, T0 + 3 * MINUTE, {
        emit: () => [anEvent(ws, 'never', T0)],
      });
      expect(failed?.refund.status).toBe('failed');
      expect(failed?.booking.refundedMinor).toBe(1000);
      // the first message is leased by the inspection above: a failed refund added none
      expect(await dueMessages(storage)).toEqual([]);
    });

    test('settleRefund numbers the refunds it settles as succeeded (1, 2, …) for their mails; a failed one takes no number', async () => {
      const { ws, booking, payment } = await paidBooking();
      const numbers: number[] = [];
      const settle = async (amountMinor: number, status: 'succeeded' | 'failed', at: number) => {
        const refund = aRefund(booking, payment, { amountMinor, createdAt: at, updatedAt: at });
        await storage.reserveRefund(refund);
        await storage.settleRefund(refund.id, { status, reference: status === 'succeeded' ? `re_${amountMinor}` : null }, at, {
          emit: () => [],
          mails: (saved, number) => {
            numbers.push(number);
            return [
              {
                workspaceId: ws.id,
                bookingId: saved.id,
                kind: 'refunded',
                revision: -number,
                snapshot: { status: saved.status, startTime: saved.startTime, endTime: saved.endTime, cancelReason: null, refundMinor: amountMinor },
                createdAt: at,
              },
            ];
          },
        });
      };
      await settle(500, 'succeeded', T0 + MINUTE);
      await settle(700, 'failed', T0 + 2 * MINUTE);
      await settle(300, 'succeeded', T0 + 3 * MINUTE);
      expect(numbers).toEqual([1, 2]);
      const mails = await storage.listBookingMails(booking.id);
      expect(mails.map((mail) => [mail.kind, mail.revision, mail.snapshot.refundMinor])).toEqual([
        ['refunded', -1, 500],
        ['refunded', -2, 300],
      ]);
    });

    test("settlePayment to paid with another amountMinor records it as paid and takes what was asked and not taken off the booking's price", async () => {
      const { ws, srv, prv } = await seed(storage);
      const booking = await book(
        storage,
        aBooking(srv, prv, { status: 'PENDING', amountMinor: 3550, priceMinor: 3550, currency: 'EUR', holdExpiresAt: T0 + HOUR }),
      );
      const payment = aPayment(booking);
      await storage.createPayment(payment);
      const settled = await storage.settlePayment(payment.id, 'pending', { status: 'paid', amountMinor: 2550 }, T0 + MINUTE);
      expect(settled?.payment).toEqual({ ...payment, status: 'paid', amountMinor: 2550, updatedAt: T0 + MINUTE });
      expect(await storage.getBooking(ws.id, booking.id)).toEqual({ ...booking, paidMinor: 2550, priceMinor: 2550 });
      // a discount of all of it: nothing paid, nothing left of the price
      const free = await book(storage, aBooking(srv, prv, { status: 'PENDING', startTime: SLOT + HOUR, amountMinor: 1000, priceMinor: 1000, currency: 'EUR' }));
      const freePayment = aPayment(free, { amountMinor: 1000 });
      await storage.createPayment(freePayment);
      await storage.settlePayment(freePayment.id, 'pending', { status: 'paid', amountMinor: 0 }, T0 + MINUTE);
      expect(await storage.getBooking(ws.id, free.id)).toMatchObject({ paidMinor: 0, priceMinor: 0 });
    });

    test(
      'of 10 concurrent refunds of 1000 on a booking paid 3550, exactly 3 are reserved',
      async () => {
        const { ws, booking, payment } = await paidBooking();
        const other = db.reopen();
        await warm([storage, other]);
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) => (i % 2 ? other : storage).reserveRefund(aRefund(booking, payment, { createdAt: T0 + i }))),
        );
        expect(results.filter((result) => result.ok)).toHaveLength(3);
        expect((await storage.getBooking(ws.id, booking.id))!.refundedMinor).toBe(3000);
        expect(await storage.listRefunds(booking.id)).toHaveLength(3);
      },
      RACE_TIMEOUT_MS,
    );
  });
}
