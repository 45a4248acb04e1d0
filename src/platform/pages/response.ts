const CAPTCHA_ORIGINS: Record<string, string[]> = {
  recaptcha: ['https://www.google.com', 'https://www.gstatic.com'],
  turnstile: ['https://challenges.cloudflare.com'],
  hcaptcha: ['https://js.hcaptcha.com', 'https://hcaptcha.com', 'https://*.hcaptcha.com'],
};

/**
 * svc's pages allow only svc itself: no inline script or style at all (the widget styles itself with
 * constructable stylesheets, a workspace's colour comes from its brand stylesheet). A configured captcha adds its
 * provider's origins, which its script and frame need.
 */
export function pageCsp(captchaProvider?: string): string {
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

export interface PageResponseOptions {
  /** 200 by default */
  status?: number;
  /** pageCsp() by default; a page with its own policy (the panel's, which a host may frame) passes it */
  csp?: string;
  /** `no-cache` (revalidate) by default; `no-store` for a page that shows a booking or a payment */
  cache?: 'no-cache' | 'no-store';
  /** `strict-origin-when-cross-origin` by default; `no-referrer` where the URL is a credential */
  referrer?: 'strict-origin-when-cross-origin' | 'no-referrer';
}

/** A page as a response, with the headers every svc page has; framing is refused unless its CSP allows some. */
export function pageResponse(document: string, options: PageResponseOptions = {}): Response {
  const csp = options.csp ?? pageCsp();
  return new Response(document, {
    status: options.status ?? 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': csp,
      'x-content-type-options': 'nosniff',
      'referrer-policy': options.referrer ?? 'strict-origin-when-cross-origin',
      'cache-control': options.cache ?? 'no-cache',
      ...(csp.includes("frame-ancestors 'none'") ? { 'x-frame-options': 'DENY' } : {}),
    },
  });
}
