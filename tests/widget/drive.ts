import axe from 'axe-core';
import type { Locator, Page } from 'playwright-core';

/** How a visitor goes through the widget, step by step (Playwright's CSS locators pierce the open shadow root). */
export function widgetOf(page: Page, index = 0): Locator {
  return page.locator('svc-booking').nth(index);
}

export async function heading(widget: Locator, name: string | RegExp): Promise<void> {
  await widget.getByRole('heading', { name }).waitFor();
}

/** Clicks a service, then on to the days (through the provider step when it has several: any available, or `provider`). */
export async function chooseService(widget: Locator, name: string, provider?: string): Promise<void> {
  await widget.getByRole('button', { name: new RegExp(`^${name}`) }).click();
  await reachDays(widget, provider);
}

const PROVIDER_STEP = /Choose a person|Person wählen/;

/**
 * Waits for the day step. A service several people give shows the provider step first: keeps its default, "Any
 * available", or picks `provider` by name, and continues.
 */
export async function reachDays(widget: Locator, provider?: string): Promise<void> {
  const step = widget.getByRole('heading', { name: new RegExp(`Choose a day|Tag wählen|${PROVIDER_STEP.source}`) });
  await step.waitFor();
  if (PROVIDER_STEP.test((await step.textContent()) ?? '')) await chooseProvider(widget, provider);
  else if (provider !== undefined) throw new Error(`no provider step to choose ${provider} on`);
  await heading(widget, /Choose a day|Tag wählen/);
}

/** On the provider step: checks `provider` (by name; "Any available" stays checked without one) and continues. */
export async function chooseProvider(widget: Locator, provider?: string): Promise<void> {
  await heading(widget, PROVIDER_STEP);
  if (provider !== undefined) await widget.getByRole('radio', { name: provider, exact: true }).check();
  await widget.getByRole('button', { name: /^(Continue|Weiter)$/ }).click();
  await heading(widget, /Choose a day|Tag wählen/);
}

/**
 * Clicks the first open day of the month shown (moving on a month when this one has none), or the first on or
 * after `notBefore` (YYYY-MM-DD); returns it.
 */
export async function chooseFirstDay(widget: Locator, notBefore?: string): Promise<string> {
  const open = widget.locator('button.day.open');
  const firstOpen = async () => {
    for (const button of await open.all()) {
      const day = (await button.getAttribute('data-day'))!;
      if (notBefore === undefined || day >= notBefore) return { day, button };
    }
    return null;
  };
  await widget.locator('table[role=grid]').waitFor();
  let found: Awaited<ReturnType<typeof firstOpen>> = null;
  for (let months = 0; months < 3; months++) {
    await widget.locator('.note', { hasText: /Loading|Wird geladen/ }).waitFor({ state: 'detached' });
    if ((found = await firstOpen())) break;
    await widget.getByRole('button', { name: /Next month|Nächster Monat/ }).click();
  }
  if (!found) throw new Error(`no open day${notBefore ? ` on or after ${notBefore}` : ''} within three months`);
  const { day, button } = found;
  await button.click();
  await heading(widget, /Choose a time|Uhrzeit wählen/);
  return day;
}

/** Moves the calendar to `day`'s month and clicks it. */
export async function chooseDay(widget: Locator, day: string): Promise<void> {
  await widget.locator('table[role=grid]').waitFor();
  for (let months = 0; months < 24 && (await widget.locator(`button[data-day="${day}"]`).count()) === 0; months++) {
    await widget.getByRole('button', { name: /Next month|Nächster Monat/ }).click();
  }
  const button = widget.locator(`button.day.open[data-day="${day}"]`);
  await button.waitFor();
  await button.click();
  await heading(widget, /Choose a time|Uhrzeit wählen/);
}

export async function chooseTime(widget: Locator, label?: string): Promise<string> {
  const times = widget.locator('button.time');
  await times.first().waitFor();
  const button = label ? widget.locator('button.time', { hasText: label }) : times.first();
  const text = (await button.textContent())!.trim();
  await button.click();
  await heading(widget, /Your details|Ihre Angaben/);
  return text;
}

export async function fillDetails(widget: Locator, values: { name?: string; email?: string; allergies?: string }): Promise<void> {
  if (values.name !== undefined) await widget.getByLabel(/^(Name)/).fill(values.name);
  if (values.email !== undefined) await widget.getByLabel(/^(Email|E-Mail)/).fill(values.email);
  if (values.allergies !== undefined) await widget.getByLabel(/^Allergies/).fill(values.allergies);
}

export async function submit(widget: Locator): Promise<void> {
  await widget.locator('form button[type=submit]').click();
}

/** From the day step to the confirmation: the first open day, its first free time, `details`, submitted. */
export async function bookFirstFreeTime(widget: Locator, details: Parameters<typeof fillDetails>[1]): Promise<{ day: string; time: string }> {
  const day = await chooseFirstDay(widget);
  const time = await chooseTime(widget);
  await fillDetails(widget, details);
  await submit(widget);
  await heading(widget, 'Booking confirmed');
  return { day, time };
}

/** The instant of a wall time in a zone, as the API prints it. */
export function instantIn(day: string, time: string, zone: string): string {
  return Temporal.PlainDateTime.from(`${day}T${time}`).toZonedDateTime(zone).toInstant().toString({ smallestUnit: 'millisecond' });
}

/** axe-core's WCAG 2.2 A and AA rules over the whole page, shadow roots included; returns the violations. */
export async function axeViolations(page: Page): Promise<{ id: string; impact: string | null; nodes: string[] }[]> {
  await page.addScriptTag({ content: axe.source });
  return page.evaluate(async () => {
    const run = (window as unknown as { axe: typeof axe }).axe.run;
    const result = await run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] } });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? null,
      nodes: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary}`),
    }));
  });
}
