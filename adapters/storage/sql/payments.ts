import { and, asc, eq } from 'drizzle-orm';
import type { PaymentRecord, PaymentStore } from '../../../src/ports/storage/index.ts';
import { transitionIn } from './bookings.ts';
import { unique, type Dialect, type Row } from './dialect.ts';

const toPayment = (row: Row<'payments'>): PaymentRecord => row as PaymentRecord;

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
      return dialect.write(async (tx) => {
        const [row] = await tx
          .update(p)
          .set({ ...to, updatedAt: at })
          .where(and(eq(p.id, paymentId), eq(p.status, from)))
          .returning();
        if (!row) return null;
        const moved = booking ? await transitionIn(tx, t, booking.workspaceId, row.bookingId, booking.transition) : null;
        return { payment: toPayment(row), booking: moved };
      });
    },
  };
}
