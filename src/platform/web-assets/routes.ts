import { openRoute } from '../access/policy.ts';
import { accessDeclarations } from '../access/macro.ts';
import { Elysia } from 'elysia';
import { gzipSync } from 'node:zlib';
import type { WebAsset } from './asset.ts';
import { WEB_ASSETS } from './generated.ts';

/**
 * The URL in a site's script tag never changes, so it is cached for a day (a new svc version reaches every site
 * within one) and then revalidated by ETag, the content hash: a 304 costs nothing. `?v=<hash>` URLs, which
 * svc's own pages use, are immutable for a year.
 */
const DAILY = 'public, max-age=86400, stale-while-revalidate=604800';
const IMMUTABLE = 'public, max-age=31536000, immutable';

function acceptsGzip(request: Request): boolean {
  return /\bgzip\b/.test(request.headers.get('accept-encoding') ?? '');
}

function etagMatches(request: Request, etag: string): boolean {
  const header = request.headers.get('if-none-match');
  if (!header) return false;
  return header.trim() === '*' || header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}

/** Serves one asset: 304 when the client holds this build, gzip when accepted. */
function serveAsset(asset: WebAsset, gzipped: () => Uint8Array<ArrayBuffer>, request: Request): Response {
  const versioned = new URL(request.url).searchParams.get('v') === asset.etag.slice(1, -1);
  const headers: Record<string, string> = {
    'content-type': asset.contentType,
    etag: asset.etag,
    'cache-control': versioned ? IMMUTABLE : DAILY,
    vary: 'Accept-Encoding',
    'x-content-type-options': 'nosniff',
    // the widget runs on other sites' pages
    'access-control-allow-origin': '*',
    'cross-origin-resource-policy': 'cross-origin',
  };
  if (etagMatches(request, asset.etag)) return new Response(null, { status: 304, headers });
  if (acceptsGzip(request)) return new Response(gzipped(), { headers: { ...headers, 'content-encoding': 'gzip' } });
  return new Response(asset.body, { headers });
}

/** GET (and HEAD) of every browser bundle, from the module the build embedded. */
export function webAssetRoutes(assets: WebAsset[] = WEB_ASSETS) {
  const app = new Elysia({ name: 'web-assets' }).use(accessDeclarations);
  for (const asset of assets) {
    let compressed: Uint8Array<ArrayBuffer> | undefined;
    const gzipped = () => (compressed ??= new Uint8Array(gzipSync(asset.body, { level: 9 })));
    app.get(asset.path, ({ request }) => serveAsset(asset, gzipped, request), { openAccess: openRoute(), detail: { hide: true } });
  }
  return app;
}

/** The asset served at `path`; throws when the build has none (a bundle list and a route disagree). */
export function webAsset(path: string, assets: WebAsset[] = WEB_ASSETS): WebAsset {
  const asset = assets.find((candidate) => candidate.path === path);
  if (!asset) throw new Error(`no web asset ${path}: is it in WEB_BUNDLES of scripts/build-web.ts?`);
  return asset;
}
