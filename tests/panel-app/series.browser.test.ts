import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chromiumAvailable } from '../widget/browser-env.ts';
import { startPanelBrowserEnv, type PanelBrowserEnv } from '../panel/panel-browser-env.ts';
import { go, seed, signIn, type Seeded } from './support.ts';

/* The service form's `repeatable` (docs/contract/series.md §5): ticked in the panel, offered by the widget's config. */

const describeBrowser = chromiumAvailable() ? describe : describe.skip;

describeBrowser('the panel service form: repeat weekly', () => {
  let env: PanelBrowserEnv;
  let data: Seeded;
  beforeAll(async () => {
    env = await startPanelBrowserEnv({ config: { SVC_RATE_LIMIT: 2000 } });
    data = await seed(env);
  }, 30_000);
  afterAll(() => env?.close());

  test('a new service ticked "Customers may repeat it weekly" is repeatable in the API and the widget config; unticking it undoes that', async () => {
    const { page, errors, close } = await env.open();
    page.setDefaultTimeout(10_000);
    await signIn(env, page);
    await go(page, 'Services');
    await page.getByRole('button', { name: 'New service' }).click();
    await page.getByLabel('Name').fill('Weekly lesson');
    await page.getByLabel('Duration (minutes)').fill('45');
    await page.getByRole('checkbox', { name: 'Anna Schmidt' }).check();
    await page.getByRole('checkbox', { name: 'Customers may repeat it weekly in the widget' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Edit: Weekly lesson' }).waitFor();
    const repeatableOf = async () => {
      const config = (await (await fetch(`${env.appUrl}/api/v1/workspaces/acme/config`)).json()) as { services: { name: string; repeatable: boolean }[] };
      return config.services.find((service) => service.name === 'Weekly lesson')?.repeatable;
    };
    expect(await repeatableOf()).toBe(true);
    await page.getByRole('button', { name: 'Edit: Weekly lesson' }).click();
    const box = page.getByRole('checkbox', { name: 'Customers may repeat it weekly in the widget' });
    expect(await box.isChecked()).toBe(true);
    await box.uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Edit: Weekly lesson' }).waitFor();
    expect(await repeatableOf()).toBe(false);
    expect(data.anna).toMatch(/^prv_/);
    expect(errors).toEqual([]);
    await close();
  }, 60_000);
});
