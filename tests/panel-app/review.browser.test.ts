import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { axeViolations } from '../widget/drive.ts';
import { chromiumAvailable, SCREENSHOTS } from '../widget/browser-env.ts';
import { startPanelBrowserEnv, type PanelBrowserEnv } from '../panel/panel-browser-env.ts';
import { go, seed, signIn } from './support.ts';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;
const SECTIONS = ['Dashboard', 'Bookings', 'Calendar', 'Services', 'Providers', 'Working hours', 'Custom fields', 'Settings'];
const OUT = join(SCREENSHOTS, 'panel');

describeBrowser('every panel section, standalone, at 1280 px and in a 782 px WordPress column, light and dark: axe-core and screenshots', () => {
  let env: PanelBrowserEnv;
  beforeAll(async () => {
    env = await startPanelBrowserEnv({ config: { SVC_RATE_LIMIT: 2000 } });
    await seed(env);
    mkdirSync(OUT, { recursive: true });
  }, 30_000);
  afterAll(() => env?.close());

  for (const width of [1280, 782]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      test(`${width} px, ${colorScheme}: no axe violation in any section; screenshots saved`, async () => {
        // bypassCSP only lets the test inject axe-core: the page's own CSP forbids inline scripts
        const { page, errors, close } = await env.open({ viewport: { width, height: 900 }, colorScheme, bypassCSP: true });
        page.setDefaultTimeout(10_000);
        await signIn(env, page);
        const violations: unknown[] = [];
        for (const title of SECTIONS) {
          await go(page, title);
          violations.push(...(await axeViolations(page)).map((violation) => ({ section: title, ...violation })));
          await page.screenshot({ path: join(OUT, `${title.toLowerCase().replace(/ /g, '-')}-${width}-${colorScheme}.png`), fullPage: true });
        }
        expect(violations).toEqual([]);
        expect(errors).toEqual([]);
        await close();
      }, 90_000);
    }
  }
});
