import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { startPanelBrowserEnv, type PanelBrowserEnv } from '../panel/panel-browser-env.ts';
import { chromiumAvailable } from '../widget/browser-env.ts';
import { axeViolations } from '../widget/drive.ts';
import { go, seed, type Seeded, signIn } from './support.ts';

/*
 * What a new owner sees in the standalone admin, at a phone's 390 px and a desktop's 1280 px, in light and dark
 * (the pass scripts/screenshots.ts makes for eyes): no section scrolls the page sideways, and in a form grid the
 * controls of a row stay in line even when a neighbour has a hint under it (Settings: "Email for booking news"),
 * and none is wider than its column (the time zone select); a half-hour booking in the calendar shows one whole line.
 */

const describeBrowser = chromiumAvailable() ? describe : describe.skip;
const SECTIONS = ['Bookings', 'Calendar', 'Services', 'Providers', 'Working hours', 'Custom fields', 'Settings'];

/**
 * The tops of the controls in each row of every form grid on the page, row by row (a row: the fields sharing a
 * top), and the labels of the fields whose control is wider than the field (running into the next column).
 */
function formGrid(page: Page): Promise<{ rows: number[][]; tooWide: string[] }> {
  return page.evaluate(() => {
    const rows = new Map<string, number[]>();
    const tooWide: string[] = [];
    document.querySelectorAll('.grid').forEach((grid, index) => {
      for (const field of grid.querySelectorAll(':scope > .field')) {
        const control = field.querySelector('input, select, textarea');
        if (!control) continue;
        const box = field.getBoundingClientRect();
        const key = `${index}:${Math.round(box.top)}`;
        rows.set(key, [...(rows.get(key) ?? []), Math.round(control.getBoundingClientRect().top)]);
        if (control.getBoundingClientRect().right > box.right + 1) tooWide.push(field.querySelector('label')?.textContent ?? '?');
      }
    });
    return { rows: [...rows.values()], tooWide };
  });
}

describeBrowser('the standalone admin at 390 and 1280 px, light and dark', () => {
  let env: PanelBrowserEnv;
  let seeded: Seeded;
  beforeAll(async () => {
    env = await startPanelBrowserEnv({ config: { SVC_RATE_LIMIT: 5000 } });
    seeded = await seed(env);
  }, 30_000);
  afterAll(() => env?.close());

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [390, 1280]) {
      test(`${colorScheme}, ${width} px: no section scrolls sideways; half-hour bookings show whole lines; the controls of a form row are in line; Settings axe-clean`, async () => {
        const { page, errors, close } = await env.open({
          colorScheme,
          viewport: { width, height: 844 },
          bypassCSP: true,
          ...(width === 390 ? { isMobile: true, hasTouch: true } : {}),
        });
        page.setDefaultTimeout(10_000);
        await signIn(env, page);
        const sideways = async () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(await sideways()).toBe(0);
        for (const section of SECTIONS) {
          await go(page, section);
          expect({ section, sideways: await sideways() }).toEqual({ section, sideways: 0 });
          if (section === 'Calendar') {
            // the week's half-hour bookings: one whole line each, no half of a second one peeping out below
            // the seeded bookings are on the first working day after today: this week, or next week at a weekend
            const today = Temporal.Now.plainDateISO('Europe/Berlin');
            const nextMonday = today.add({ days: 8 - today.dayOfWeek });
            if (Temporal.PlainDate.compare(Temporal.PlainDate.from(seeded.day), nextMonday) >= 0) {
              await page.getByRole('button', { name: /Next week/ }).click();
            }
            await page.locator('.placed').first().waitFor();
            const cut = await page
              .locator('.placed-open')
              .evaluateAll((boxes) => boxes.filter((box) => box.clientHeight <= 32 && box.scrollHeight > box.clientHeight).map((box) => box.textContent));
            expect(cut).toEqual([]);
          }
        }
        // Settings is where the section was left: its business fields, a hint under one of them
        const { rows, tooWide } = await formGrid(page);
        expect(rows.length).toBeGreaterThan(0);
        for (const row of rows) expect(row.every((top) => Math.abs(top - row[0]!) <= 1)).toBe(true);
        expect(tooWide).toEqual([]);
        expect(await axeViolations(page)).toEqual([]);
        expect(errors).toEqual([]);
        await close();
      }, 120_000);
    }
  }
});
