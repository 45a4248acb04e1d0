import { webAsset } from '../web-assets/routes.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for HTML content and quoted attribute values. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

/** The URL of a built asset with its content hash, which svc serves as immutable. */
export function assetUrl(path: string): string {
  return `${path}?v=${webAsset(path).etag.slice(1, -1)}`;
}

const CAPTCHA_ORIGINS: Record<string, string[]> = {
  recaptcha: ['https://www.google.com', 'https://www.gstatic.com'],
  turnstile: ['https://challenges.cloudflare.com'],
  hcaptcha: ['https://js.hcaptcha.com', 'https://hcaptcha.com', 'https://*.hcaptcha.com'],
};

/**
 * svc's pages allow only svc itself: no inline script or style at all (the widget styles itself with
 * constructable stylesheets). A configured captcha adds its provider's origins, which its script and frame need.
 */
export function pageCsp(captchaProvider: string | undefined): string {
  const captcha = captchaProvider ? (CAPTCHA_ORIGINS[captchaProvider] ?? []) : [];
  const extra = captcha.length > 0 ? ` ${captcha.join(' ')}` : '';
  return [
    "default-src 'none'",
    `script-src 'self'${extra}`,
    `style-src 'self'`,
    `connect-src 'self'${extra}`,
    `frame-src${captcha.length > 0 ? extra : " 'none'"}`,
    "img-src 'self' data: https:",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export interface PageOptions {
  title: string;
  lang?: string;
  body: string;
  description?: string;
}

export function page({ title, lang = 'en', body, description }: PageOptions): string {
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
${description ? `<meta name="description" content="${escapeHtml(description)}">\n` : ''}<link rel="stylesheet" href="${assetUrl('/svc-pages.css')}">
</head>
<body>
${body}
</body>
</html>
`;
}
