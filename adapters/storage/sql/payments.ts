import { and, asc, eq, sql } from 'drizzle-orm';
import type { PaymentRecord, PaymentStore, RefundRecord } from '../../../src/ports/storage/index.ts';
import { transitionIn } from './bookings.ts';
import { unique, type Dialect, type Row } from './dialect.ts';
import { writeMails } from './mail.ts';
import { writeOutbox } from './outbox.ts';
import type { BookingRecord } from '../../../src/ports/storage/index.ts';

const toPayment = (row: Row<'payments'>): PaymentRecord => row as PaymentRecord;
const toRefund = (row: Row<'refunds'>): RefundRecord => row as RefundRecord;
const toBooking = (row: Row<'bookings'>): BookingRecord => row as BookingRecord;

export function paymentQueries(dialect: Dialect): PaymentStore {
  const { db, tables: t } = dialect;
  return {
    async createPayment(payment) {
      await unique(dialect, 'payment', () => db.insert(t.payments).values(payment));
    },

    async getPaymentByReference(provider, reference) {
      const p = t.payments;
      const [row] = await db
        .select()
        .from(p)
        .where(and(eq(p.provider, provider), eq(p.reference, reference)));
      return row ? toPayment(row) : null;
    },

    async listPayments(bookingId) {
      const p = t.payments;
      const rows = await db.select().from(p).where(eq(p.bookingId, bookingId)).orderBy(asc(p.createdAt));
      return rows.map(toPayment);
    },

    async settlePayment(paymentId, from, to, at, booking) {
      const p = t.payments;
      const b = t.bookings;
      return dialect.write(async (tx) => {
        // The sum asked for, read under the write lock: what a lower sum taken leaves is the discount.
        const [asked] = to.amountMinor === undefined ? [] : await tx.select({ amountMinor: p.amountMinor }).from(p).where(eq(p.id, paymentId));
        const [row] = await tx
          .update(p)
          .set({ ...to, updatedAt: at })
          .where(and(eq(p.id, paymentId), eq(p.status, from)))
          .returning();
        if (!row) return null;
        if (to.status === 'paid' && from !== 'paid') {
          const discount = asked ? Math.max(0, asked.amountMinor - row.amountMinor) : 0;
          await tx
            .update(b)
            .set({
              paidMinor: sql`${b.paidMinor} + ${row.amountMinor}`,
              // CASE, not greatest(): SQLite has no greatest()
              ...(discount > 0
                ? {
                    priceMinor: sql`case when coalesce(${b.priceMinor}, ${b.amountMinor}, 0) > ${discount} then coalesce(${b.priceMinor}, ${b.amountMinor}, 0) - ${discount} else 0 end`,
                  }
                : {}),
            })
            .where(eq(b.id, row.bookingId));
        }
        const moved = booking ? await transitionIn(tx, t, booking.workspaceId, row.bookingId, booking.transition) : null;
        return { payment: toPayment(row), booking: moved };
      });
    },

    async reserveRefund(refund) {
      const b = t.bookings;
      return dialect.write(async (tx) => {
        // The bound is checked in the UPDATE itself, so concurrent refunds cannot together pass what was paid.
        const [row] = await tx
          .update(b)
          .set({ refundedMinor: sql`${b.refundedMinor} + ${refund.amountMinor}`, updatedAt: refund.createdAt })
          .where(and(eq(b.id, refund.bookingId), eq(b.workspaceId, refund.workspaceId), sql`${b.refundedMinor} + ${refund.amountMinor} <= ${b.paidMinor}`))
          .returning();
        if (!row) {
          const [current] = await tx.select({ paid: b.paidMinor, refunded: b.refundedMinor }).from(b).where(eq(b.id, refund.bookingId));
          return { ok: false as const, refundable: current ? Math.max(0, current.paid - current.refunded) : 0 };
        }
        await tx.insert(t.refunds).values(refund);
        return { ok: true as const, booking: toBooking(row) };
      });
    },

    async settleRefund(refundId, to, at, consequences) {
      const r = t.refunds;
      const b = t.bookings;
      return dialect.write(async (tx) => {
        const [row] = await tx
          .update(r)
          .set({ status: to.status, reference: to.reference, updatedAt: at })
          .where(and(eq(r.id, refundId), eq(r.status, 'pending')))
          .returning();
        if (!row) return null;
        const [saved] =
          to.status === 'failed'
            ? await tx
                .update(b)
                .set({ refundedMinor: sql`${b.refundedMinor} - ${row.amountMinor}`, updatedAt: at })
                .where(eq(b.id, row.bookingId))
                .returning()
            : await tx.select().from(b).where(eq(b.id, row.bookingId));
        if (!saved) throw new Error(`refund ${refundId} has no booking`);
        const booking = toBooking(saved);
        if (to.status === 'succeeded' && consequences) {
          await writeOutbox(tx, t, consequences.emit(booking));
          if (consequences.mails) {
            // Settlements are serialized by the write lock, so the count (this one included) is this refund's own.
            const [counted] = await tx
              .select({ n: sql<number>`count(*)` })
              .from(r)
              .where(and(eq(r.bookingId, row.bookingId), eq(r.status, 'succeeded')));
            await writeMails(tx, t, consequences.mails(booking, Number(counted?.n ?? 1)));
          }
        }
        return { refund: toRefund(row), booking };
      });
    },

    async listRefunds(bookingId) {
      const r = t.refunds;
      const rows = await db.select().from(r).where(eq(r.bookingId, bookingId)).orderBy(asc(r.createdAt), asc(r.id));
      return rows.map(toRefund);
    },
  };
}
