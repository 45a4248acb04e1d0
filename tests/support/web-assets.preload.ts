// bunfig.toml preloads this before any test: the app imports the generated bundles, so build them when stale.
import { ensureWebAssets } from '../../scripts/build-web.ts';

await ensureWebAssets();
