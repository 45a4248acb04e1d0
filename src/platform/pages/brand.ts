import { Elysia, t } from 'elysia';
import { accessDeclarations } from '../access/macro.ts';
import { openRoute } from '../access/policy.ts';

/*
 * A workspace's colour reaches its pages without an inline style: the page links /svc-brand/<rrggbb>.css, one
 * tiny stylesheet per colour that sets `--brand` and a text colour readable on it (`--brand-text`). The URL is
 * its content, so it is cached for a year; a page under `style-src 'self'` may load it.
 */

const HEX = /^#?([0-9a-fA-F]{6})$/;

/** The stylesheet of a `#rrggbb` colour, or null for anything else (the page keeps svc's blue). */
export function brandStylesheetUrl(color: string): string | null {
  const hex = HEX.exec(color)?.[1];
  return hex ? `/svc-brand/${hex}.css` : null;
}

/** WCAG relative luminance of an `rrggbb` colour. */
function luminance(hex: string): number {
  const channel = (offset: number) => {
    const value = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
}

/** White or near-black text on the colour, whichever contrasts more. */
function textOn(hex: string): string {
  const background = luminance(hex);
  const onWhite = 1.05 / (background + 0.05);
  const onDark = (background + 0.05) / (luminance('111111') + 0.05);
  return onWhite >= onDark ? '#ffffff' : '#111111';
}

/** GET /svc-brand/<rrggbb>.css */
export function brandStylesheetRoutes() {
  return new Elysia({ name: 'brand-stylesheet' }).use(accessDeclarations).get(
    '/svc-brand/:file',
    ({ params }) => {
      const hex = /^([0-9a-fA-F]{6})\.css$/.exec(params.file)?.[1];
      if (!hex) return new Response('no such colour\n', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
      return new Response(`:root{--brand:#${hex};--brand-text:${textOn(hex)}}\n`, {
        headers: {
          'content-type': 'text/css; charset=utf-8',
          'cache-control': 'public, max-age=31536000, immutable',
          'x-content-type-options': 'nosniff',
        },
      });
    },
    { params: t.Object({ file: t.String({ maxLength: 16 }) }), openAccess: openRoute(), detail: { hide: true } },
  );
}
