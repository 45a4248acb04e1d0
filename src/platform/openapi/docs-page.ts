import { html } from '../pages/html.ts';
import { layout } from '../pages/layout.ts';
import { pageResponse } from '../pages/response.ts';

/**
 * The API reference's CSP (docs/decisions/0017): svc's own scripts only, no request to any other origin. Unlike
 * svc's other pages it allows inline styles, since Redoc styles itself with styled-components, which writes `<style>`
 * elements at run time, and a worker from a blob: URL, which is how Redoc runs its search index. The page holds
 * no secret and takes no input, so inline styles cost little here.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  'worker-src blob:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * `GET {prefix}/docs`: the OpenAPI description rendered by Redoc's standalone bundle, which svc serves itself
 * (`{prefix}/docs/redoc.standalone.js`, from the binary), so the page needs no network beyond svc.
 */
export function docsPageResponse(prefix: string): Response {
  const document = layout({
    title: 'svc API v1',
    description: 'The reference of the svc HTTP API, version 1',
    stylesheet: `${prefix}/docs/docs.css`,
    scripts: [`${prefix}/docs/redoc.standalone.js`, `${prefix}/docs/docs.js`],
    body: html`<noscript><p>This page needs JavaScript. The API description itself is <a href="openapi.json">openapi.json</a>.</p></noscript>
<div id="redoc"></div>`,
  });
  return pageResponse(document, { csp: DOCS_CSP });
}
