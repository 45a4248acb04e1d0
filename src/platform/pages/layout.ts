import { webAsset } from '../web-assets/routes.ts';
import { brandStylesheetUrl } from './brand.ts';
import { html, type Html } from './html.ts';

/** The URL of a built asset with its content hash, which svc serves as immutable. */
export function assetUrl(path: string): string {
  return `${path}?v=${webAsset(path).etag.slice(1, -1)}`;
}

export interface LayoutOptions {
  title: string;
  /** the page's language (BCP 47), `en` by default */
  lang?: string;
  body: Html;
  description?: string;
  /**
   * The workspace's colour (`#rrggbb`): the page gets it as `--brand` (and a readable `--brand-text`) from a
   * stylesheet svc serves for that colour, so no inline style is needed. Anything else keeps svc's blue.
   */
  brandColor?: string | null;
  /** the built stylesheet of the page: `/svc-pages.css` (light and dark) unless the page has its own */
  stylesheet?: string;
  /** built scripts the page loads, deferred */
  scripts?: string[];
  /** a class on `<body>`, for a page's own rules in the stylesheet */
  bodyClass?: string;
  /** keep the page out of search engines (checkout and manage pages) */
  noindex?: boolean;
  /** reload the page after this many seconds (a payment that is still being confirmed) */
  refreshSeconds?: number;
}

/**
 * Every server-rendered page of svc: one document shape, one stylesheet, nothing inline, so each page is served
 * under a CSP with `style-src 'self'` and no `'unsafe-inline'` (see pageCsp).
 */
export function layout(options: LayoutOptions): string {
  const { title, lang = 'en', body, description, brandColor, stylesheet = '/svc-pages.css', scripts = [], bodyClass, noindex, refreshSeconds } = options;
  const brand = brandColor ? brandStylesheetUrl(brandColor) : null;
  const head = [
    html`<meta charset="utf-8">`,
    html`<meta name="viewport" content="width=device-width, initial-scale=1">`,
    html`<meta name="color-scheme" content="light dark">`,
    noindex && html`<meta name="robots" content="noindex">`,
    refreshSeconds && html`<meta http-equiv="refresh" content="${refreshSeconds}">`,
    html`<link rel="icon" href="data:,">`,
    html`<title>${title}</title>`,
    description && html`<meta name="description" content="${description}">`,
    html`<link rel="stylesheet" href="${assetUrl(stylesheet)}">`,
    brand && html`<link rel="stylesheet" href="${brand}">`,
    ...scripts.map((script) => html`<script src="${assetUrl(script)}" defer></script>`),
  ].filter((line): line is Html => Boolean(line));
  return `${html`<!doctype html>
<html lang="${lang}">
<head>
${head.map((line) => html`${line}\n`)}</head>
<body${bodyClass ? html` class="${bodyClass}"` : ''}>
${body}
</body>
</html>
`}`;
}
