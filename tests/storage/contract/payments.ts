import { describe, expect, test } from 'bun:test';
import { newId } from '../../../src/core/ids.ts';
import { UniqueViolation } from '../../../src/ports/storage/index.ts';
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
      const confirmed = { ...booking, status: 'CONFIRMED' as const, updatedAt: T0 + MINUTE, revision: 1 };
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
      expect(await storage.getBooking(ws.id, booking.id)).toEqual(booking);
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
  });
}
