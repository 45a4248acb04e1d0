/**
 * `bun scripts/bench/panel.ts [--runs 10]`: the admin panel's dashboard, embedded through svc-panel-host.js from
 * another origin in Chromium: milliseconds from the moment the panel receives `svc:panel:bootstrap` to the moment
 * the dashboard shows its data (the counts), measured inside the panel's frame. Decisions section 12: within 1 s.
 */
import { parseArgs } from 'node:util';
import { startPanelBrowserEnv } from '../../tests/panel/panel-browser-env.ts';
import { hostPage, seed } from '../../tests/panel-app/support.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '10' } } });
const runs = Number(values.runs);

// runs in every frame: notes when the bootstrap arrives and when the dashboard's counts appear
const PROBE = `(() => {
  window.__bench = {};
  addEventListener('message', (event) => {
    if (event.data && event.data.type === 'svc:panel:bootstrap' && window.__bench.bootstrap === undefined) window.__bench.bootstrap = performance.now();
  }, true);
  new MutationObserver(() => {
    if (window.__bench.shown === undefined && document.querySelector('[data-count=pending]')) window.__bench.shown = performance.now();
  }).observe(document, { childList: true, subtree: true });
})();`;

const env = await startPanelBrowserEnv({ config: { SVC_RATE_LIMIT: 5000 } });
await seed(env);
env.hostPage('/bench', hostPage(env.appUrl, 'dashboard'));
const timings: number[] = [];
for (let run = 0; run < runs + 1; run++) {
  const { page, close } = await env.open();
  await page.context().addInitScript(PROBE);
  await page.goto(`${env.hostUrl}/bench`);
  const frame = page.frameLocator('iframe');
  await frame.locator('[data-count=pending]').waitFor();
  const child = page.frames().find((each) => each.url().startsWith(env.appUrl))!;
  const { bootstrap, shown } = await child.evaluate(() => (window as unknown as { __bench: { bootstrap: number; shown: number } }).__bench);
  if (run > 0) timings.push(shown - bootstrap); // the first run warms the server and the browser's cache
  await close();
}
await env.close();
timings.sort((a, b) => a - b);
const at = (q: number) => timings[Math.min(timings.length - 1, Math.floor(q * timings.length))]!.toFixed(0);
console.log(`dashboard, bootstrap message → data shown, ${runs} runs: median ${at(0.5)} ms, p90 ${at(0.9)} ms, max ${at(1)} ms`);
