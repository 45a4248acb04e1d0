import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { composeMail, type MailContext } from '../../src/features/mail/compose.ts';
import type { BookingRecord, MailKind, MailMessageRecord, WorkspaceRecord } from '../../src/ports/storage/index.ts';
import { CHROMIUM, SCREENSHOTS } from '../widget/browser-env.ts';

/*
 * Each mail's HTML part rendered in Chromium at phone width (light theme), a screenshot per mail under
 * test-output/screenshots/mail/: nothing wider than the screen, every action a tappable button.
 */

const PHONE = { width: 390, height: 844 };
const START = Date.parse('2026-12-01T09:00:00Z');
const OUT = join(SCREENSHOTS, 'mail');
let browser: Browser;

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}, 60_000);
afterAll(() => browser?.close());

const workspace = (language: string): WorkspaceRecord => ({
  id: 'ws_1',
  slug: 'acme',
  name: 'Acme Studio',
  primaryColor: '#0f766e',
  notificationEmail: null,
  plan: 'self-hosted',
  industry: 'beauty',
  timezone: 'Europe/Berlin',
  language,
  timeFormat: '24h',
  cancellationHours: 24,
  requiresConfirmation: false,
  refundOnCancel: false,
  logoUrl: null,
  locale: null,
  contactEmail: null,
  contactPhone: null,
  hours: { weekly: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] }, exceptions: [] },
  domains: [],
  createdAt: 0,
  updatedAt: 0,
});
const booking: BookingRecord = {
  id: 'bk_01',
  workspaceId: 'ws_1',
  serviceId: 'srv_1',
  providerId: 'prv_1',
  status: 'CONFIRMED',
  startTime: START,
  endTime: START + 3_600_000,
  bufferTime: 0,
  customerName: 'Maximiliane Schneider-Leutheusser',
  customerEmail: 'maximiliane.schneider@example.com',
  phone: null,
  notes: null,
  customFields: {},
  amountMinor: 3550,
  currency: 'EUR',
  cancelReason: null,
  holdExpiresAt: null,
  createdAt: 0,
  updatedAt: 0,
  revision: 1,
  manageTokenHash: null,
  manageTokenSealed: null,
  priceMinor: null,
  paidMinor: 0,
  refundedMinor: 0,
};
const cases: { kind: MailKind; snapshot?: Partial<MailMessageRecord['snapshot']> }[] = [
  { kind: 'confirmed' },
  { kind: 'pending', snapshot: { status: 'PENDING', holdExpiresAt: START - 20 * 3_600_000 } },
  { kind: 'pending', snapshot: { status: 'PENDING', holdExpiresAt: null } },
  { kind: 'cancelled', snapshot: { status: 'CANCELLED', cancelReason: 'I am ill, sorry' } },
  { kind: 'rescheduled', snapshot: { previousStartTime: START - 86_400_000, previousEndTime: START - 82_800_000 } },
  { kind: 'reminder' },
];

for (const language of ['en', 'de']) {
  for (const each of cases) {
    const name = `${each.kind}${each.kind === 'pending' ? (each.snapshot?.holdExpiresAt ? '-payment' : '-confirmation') : ''}-${language}`;
    test(`the ${name} mail fits a phone screen and its buttons are tappable`, async () => {
      const context: MailContext = {
        mail: {
          id: 'mail_1',
          workspaceId: 'ws_1',
          bookingId: 'bk_01',
          kind: each.kind,
          revision: 1,
          status: 'pending',
          attempts: 0,
          nextAttemptAt: 0,
          lastError: null,
          sentAt: null,
          createdAt: 0,
          snapshot: { status: 'CONFIRMED', startTime: START, endTime: START + 3_600_000, cancelReason: null, ...each.snapshot },
        },
        booking,
        workspace: workspace(language),
        serviceName: 'Haircut and colour',
        providerName: 'Alex Hoffmann',
        manageUrl: 'https://book.acme.example/manage/cWnUJidYpNpbE7qF_cLTESVzJCV3-PQxdwLYSe-YNy0',
        checkoutUrl: 'https://book.acme.example/checkout/chk_abc',
        from: 'bookings@acme.example',
        publicUrl: 'https://book.acme.example',
        now: 0,
      };
      const mail = composeMail(context);
      const page = await browser.newPage({ viewport: PHONE, colorScheme: 'light' });
      await page.setContent(mail.html);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      const buttons = await page.locator('a').evaluateAll((links) => links.map((link) => link.getBoundingClientRect().height));
      for (const height of buttons) expect(height).toBeGreaterThanOrEqual(44);
      await page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });
      await page.close();
    }, 30_000);
  }
}
