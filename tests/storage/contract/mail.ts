import { describe, expect, test } from 'bun:test';
import type { BookingRecord, MailEntry } from '../../../src/ports/storage/index.ts';
import { SECOND, MINUTE, HOUR, DAY, T0, SLOT, RACE_TIMEOUT_MS, aBooking, ids, seed } from './fixtures.ts';
import { db, storage } from './database.ts';

/** MailStore: the mail outbox, manage links and calendar feeds. */
export function mailContract() {
  describe('mail outbox, manage links and calendar feeds', () => {
    const aMail = (booking: BookingRecord, overrides: Partial<MailEntry> = {}): MailEntry => ({
      workspaceId: booking.workspaceId,
      bookingId: booking.id,
      kind: 'confirmed',
      revision: booking.revision,
      snapshot: { status: booking.status, startTime: booking.startTime, endTime: booking.endTime, cancelReason: null },
      createdAt: T0,
      ...overrides,
    });
    async function booked(overrides: Partial<BookingRecord> = {}) {
      const { ws, srv, prv } = await seed(storage);
      const booking = aBooking(srv, prv, overrides);
      const result = await storage.reserveBooking({
        booking,
        candidates: [prv.id],
        margin: 0,
        fits: () => null,
        emit: () => [],
        mails: (saved) => [aMail(saved)],
      });
      if (!result.ok) throw new Error(result.reason);
      return { ws, srv, prv, booking: result.booking };
    }

    test('reserveBooking and transitionBooking write their mails in the same write; the revision rises with each change', async () => {
      const { ws, booking } = await booked();
      const moved = await storage.transitionBooking(ws.id, booking.id, {
        from: ['CONFIRMED'],
        to: 'CANCELLED',
        at: T0 + MINUTE,
        emit: () => [],
        mails: (saved) => [aMail(saved, { kind: 'cancelled', createdAt: T0 + MINUTE })],
      });
      expect(moved!.revision).toBe(1);
      const mails = await storage.listBookingMails(booking.id);
      expect(mails.map((mail) => [mail.kind, mail.revision, mail.status, mail.attempts])).toEqual([
        ['confirmed', 0, 'pending', 0],
        ['cancelled', 1, 'pending', 0],
      ]);
      expect(mails[0]).toEqual({
        ...aMail(booking),
        id: expect.stringMatching(/^mail_/),
        status: 'pending',
        attempts: 0,
        nextAttemptAt: T0,
        lastError: null,
        sentAt: null,
      });
    });

    test(
      'enqueueMails writes a (booking, kind, revision) once, whoever writes it again',
      async () => {
        const { booking } = await booked();
        const other = db.reopen();
        const reminder = aMail(booking, { kind: 'reminder', dueAt: T0 + HOUR });
        const written = await Promise.all([storage.enqueueMails([reminder]), other.enqueueMails([reminder]), storage.enqueueMails([reminder])]);
        expect(written.reduce((sum, count) => sum + count, 0)).toBe(1);
        expect((await storage.listBookingMails(booking.id)).map((mail) => [mail.kind, mail.nextAttemptAt])).toEqual([
          ['confirmed', T0],
          ['reminder', T0 + HOUR],
        ]);
        expect(await storage.nextMailDueAt()).toBe(T0);
      },
      RACE_TIMEOUT_MS,
    );

    test(
      'claimDueMails leases a due mail to one claimer; recordMailAttempt counts only for the lease owner',
      async () => {
        const { booking } = await booked();
        const other = db.reopen();
        const claims = await Promise.all([storage.claimDueMails('a', T0, T0 + MINUTE, 10), other.claimDueMails('b', T0, T0 + MINUTE, 10)]);
        expect(claims.flat()).toHaveLength(1);
        const [mail] = claims.flat();
        const owner = claims[0]!.length === 1 ? 'a' : 'b';
        expect(await storage.claimDueMails('c', T0 + 1, T0 + MINUTE, 10)).toEqual([]);
        expect(await storage.recordMailAttempt('c', mail!.id, { status: 'sent', nextAttemptAt: null, error: null, at: T0 + 2 })).toBe(false);
        expect(await storage.recordMailAttempt(owner, mail!.id, { status: 'pending', nextAttemptAt: T0 + 5000, error: 'SMTP 451', at: T0 + 2 })).toBe(true);
        expect(await storage.claimDueMails('c', T0 + 4999, T0 + MINUTE, 10)).toEqual([]);
        const [again] = await storage.claimDueMails('c', T0 + 5000, T0 + MINUTE, 10);
        expect(again).toMatchObject({ id: mail!.id, attempts: 1, lastError: 'SMTP 451' });
        expect(await storage.recordMailAttempt('c', mail!.id, { status: 'sent', nextAttemptAt: null, error: null, at: T0 + 5001 })).toBe(true);
        expect(await storage.listBookingMails(booking.id)).toEqual([
          expect.objectContaining({ status: 'sent', attempts: 2, sentAt: T0 + 5001, lastError: null }),
        ]);
        expect(await storage.nextMailDueAt()).toBeNull();
        // a lapsed lease is claimable again
        await storage.enqueueMails([aMail(booking, { kind: 'reminder' })]);
        expect(await storage.claimDueMails('dead', T0, T0 + MINUTE, 10)).toHaveLength(1);
        expect(await storage.claimDueMails('alive', T0 + MINUTE + 1, T0 + 2 * MINUTE, 10)).toHaveLength(1);
      },
      RACE_TIMEOUT_MS,
    );

    test('listDueReminders: CONFIRMED, starting within the window, changed before it, without a reminder for the revision', async () => {
      const { booking } = await booked({ startTime: SLOT, endTime: SLOT + HOUR });
      const within = DAY;
      expect(await storage.listDueReminders(SLOT - DAY - 1, within, 10)).toEqual([]);
      expect((await storage.listDueReminders(SLOT - DAY, within, 10)).map((each) => each.id)).toEqual([booking.id]);
      await storage.enqueueMails([aMail(booking, { kind: 'reminder' })]);
      expect(await storage.listDueReminders(SLOT - HOUR, within, 10)).toEqual([]);
      const { booking: late } = await booked({ startTime: SLOT, endTime: SLOT + HOUR, updatedAt: SLOT - HOUR, createdAt: SLOT - HOUR });
      expect((await storage.listDueReminders(SLOT - 30 * MINUTE, within, 10)).map((each) => each.id)).not.toContain(late.id);
    });

    test('findBookingByManageToken finds the booking by its token hash only', async () => {
      const { booking } = await booked({ manageTokenHash: 'a'.repeat(64), manageTokenSealed: 'v1.x.y' });
      expect(await storage.findBookingByManageToken('a'.repeat(64))).toEqual(booking);
      expect(await storage.findBookingByManageToken('b'.repeat(64))).toBeNull();
    });

    test('putCalendarFeed replaces the provider feed; listProviderBookings lists its PENDING and CONFIRMED bookings from a time', async () => {
      const { ws, prv, booking } = await booked();
      await storage.putCalendarFeed({ providerId: prv.id, workspaceId: ws.id, tokenHash: 'old', createdAt: T0 });
      await storage.putCalendarFeed({ providerId: prv.id, workspaceId: ws.id, tokenHash: 'new', createdAt: T0 + 1 });
      expect(await storage.findCalendarFeed('old')).toBeNull();
      expect(await storage.findCalendarFeed('new')).toEqual({ providerId: prv.id, workspaceId: ws.id, tokenHash: 'new', createdAt: T0 + 1 });
      expect(await storage.listProviderBookings(ws.id, prv.id, booking.startTime, 10)).toEqual([booking]);
      expect(await storage.listProviderBookings(ws.id, prv.id, booking.startTime + 1, 10)).toEqual([]);
      await storage.transitionBooking(ws.id, booking.id, { from: ['CONFIRMED'], to: 'CANCELLED', at: T0, emit: () => [] });
      expect(await storage.listProviderBookings(ws.id, prv.id, 0, 10)).toEqual([]);
    });
    test("extendMailLeases moves only the leases the owner still holds: a renewed mail is not taken over, a lapsed one is, and the loser's extension is refused", async () => {
      const { booking } = await booked();
      await storage.enqueueMails([aMail(booking, { kind: 'reminder' })]);
      const lease = 20 * SECOND;
      const [kept, dropped] = await storage.claimDueMails('live', T0, T0 + lease, 10);
      expect(await storage.extendMailLeases('live', [kept!.id, 'mail_unknown'], T0 + 15 * SECOND + lease)).toEqual([kept!.id]);
      expect(await storage.extendMailLeases('intruder', [dropped!.id], T0 + DAY)).toEqual([]);
      expect(await storage.extendMailLeases('live', [], T0 + DAY)).toEqual([]);
      expect(ids(await storage.claimDueMails('taker', T0 + lease + 1, T0 + HOUR, 10))).toEqual([dropped!.id]);
      expect(await storage.extendMailLeases('live', [kept!.id, dropped!.id], T0 + 30 * SECOND + lease)).toEqual([kept!.id]);
      expect(await storage.claimDueMails('taker', T0 + 30 * SECOND + lease, T0 + DAY, 10)).toEqual([]);
      expect(await storage.recordMailAttempt('live', dropped!.id, { status: 'sent', nextAttemptAt: null, error: null, at: T0 + 30 * SECOND })).toBe(false);
      expect(await storage.recordMailAttempt('live', kept!.id, { status: 'sent', nextAttemptAt: null, error: null, at: T0 + 30 * SECOND })).toBe(true);
      expect(await storage.extendMailLeases('live', [kept!.id], T0 + DAY)).toEqual([]);
      expect(ids(await storage.claimDueMails('late', T0 + DAY, T0 + DAY + MINUTE, 10))).toEqual([dropped!.id]);
    });
  });
}
