import { expect, test } from 'bun:test';
import nodeIcal from 'node-ical';
import { calendarDocument } from '../../src/features/mail/calendar.ts';
import { fromLine } from '../../src/features/mail/compose.ts';
import { bookingIcs } from '../../web/widget/ics.ts';

const HOSTILE = 'Eve":mailto:evil@attacker.test;X="';

function onlyEvent(ics: string) {
  const events = Object.values(nodeIcal.sync.parseICS(ics)).filter((component) => component?.type === 'VEVENT');
  expect(events).toHaveLength(1);
  return events[0] as unknown as { attendee: { params: Record<string, string>; val: string }; organizer: { params: Record<string, string>; val: string } };
}

test('a quote, semicolon or colon in a customer or workspace name cannot add parameters or change an address in an invite', () => {
  const ics = calendarDocument(
    {
      publicUrl: 'https://svc.example.com',
      timezone: 'Europe/Berlin',
      name: 'Acme',
      method: 'REQUEST',
      organizer: { name: 'Acme "Support";X=1:mailto:boss@attacker.test', email: 'svc@example.com' },
      stamp: Date.UTC(2026, 2, 1),
    },
    [
      {
        bookingId: 'bk_1',
        startTime: Date.UTC(2026, 2, 30, 7),
        endTime: Date.UTC(2026, 2, 30, 8),
        status: 'CONFIRMED',
        revision: 1,
        summary: 'Haircut',
        description: 'Haircut',
        attendee: { email: 'eve@example.com', name: HOSTILE },
      },
    ],
  );
  const event = onlyEvent(ics);
  expect(event.attendee.val.toLowerCase()).toBe('mailto:eve@example.com');
  expect(Object.keys(event.attendee.params).sort()).toEqual(['CN', 'PARTSTAT', 'ROLE']);
  expect(event.attendee.params.CN).toBe('Eve mailto evil@attacker.test X=');
  expect(event.organizer.val.toLowerCase()).toBe('mailto:svc@example.com');
  expect(Object.keys(event.organizer.params)).toEqual(['CN']);
  expect(event.organizer.params.CN).toBe('Acme Support X=1 mailto boss@attacker.test');
});

test("the widget's .ics escapes a lone carriage return: no line of the file ends early", () => {
  const ics = bookingIcs({ id: 'bk_1', startTime: '2026-03-30T07:00:00.000Z', endTime: '2026-03-30T08:00:00.000Z', status: 'CONFIRMED' } as never, {
    workspaceName: 'Acme',
    serviceName: 'Cut\rDTSTART:19700101T000000Z',
    providerName: null,
    svcHost: 'svc.example.com',
    now: new Date(Date.UTC(2026, 2, 1)),
  });
  expect(ics).not.toMatch(/\r(?!\n)/);
  const lines = ics.split('\r\n');
  expect(lines.filter((line) => line.startsWith('DTSTART:'))).toEqual(['DTSTART:20260330T070000Z']);
  expect(lines.find((line) => line.startsWith('SUMMARY:'))).toBe('SUMMARY:Cut\\nDTSTART:19700101T000000Z · Acme');
});

test("a workspace name in a mail's From is one quoted display name, without a second address, at most 64 characters", () => {
  expect(fromLine('svc@example.com', 'Acme Studio')).toBe('"Acme Studio" <svc@example.com>');
  expect(fromLine('svc@example.com', 'Bank <security@bank.example>"\r\nBcc: x@attacker.test')).toBe(
    '"Bank security@bank.example Bcc: x@attacker.test" <svc@example.com>',
  );
  const long = fromLine('svc@example.com', 'A'.repeat(100));
  expect(long).toBe(`"${'A'.repeat(63)}…" <svc@example.com>`);
  expect(fromLine('svc@example.com', '"<>"')).toBe('svc@example.com');
  expect(fromLine('Bookings <svc@example.com>', 'Acme')).toBe('Bookings <svc@example.com>');
});
