import type { Config } from '../../platform/config.ts';
import { AppError } from '../../core/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import { isWidgetOriginAllowed } from '../../platform/access/domains.ts';

/** How long the verification service may take, ms. */
const VERIFY_TIMEOUT_MS = 10_000;

const failed = (message: string) => new AppError('CAPTCHA_FAILED', message);

/**
 * Verifies the captcha of a keyless createBooking when SVC_CAPTCHA_SECRET is set (docs/contract/routes.md): POSTs
 * `secret` and `response` form-encoded to SVC_CAPTCHA_VERIFY_URL (reCAPTCHA, Turnstile and hCaptcha share this
 * siteverify form) and accepts only `{ "success": true }`. Anything else, an unreachable service included,
 * is a 400 CAPTCHA_FAILED: failing closed keeps bots out while the verifier is down. The answer must also name
 * the page the captcha was solved on (`hostname`, which all three services return) and that page must be one the
 * workspace's widget may book from: a token solved by a person on another site is no proof for this one.
 */
export async function verifyCaptcha(
  config: Pick<Config, 'SVC_CAPTCHA_SECRET' | 'SVC_CAPTCHA_VERIFY_URL' | 'SVC_PUBLIC_URL'>,
  logger: Logger,
  token: string | undefined,
  workspace: { slug: string; domains: string[] },
): Promise<void> {
  const secret = config.SVC_CAPTCHA_SECRET;
  if (!secret) return;
  if (!token) throw failed('recaptchaToken is required: solve the captcha of the booking form and send its token');
  let verdict: unknown;
  try {
    const response = await fetch(config.SVC_CAPTCHA_VERIFY_URL!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret, response: token }),
      signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
    });
    verdict = response.ok ? await response.json() : null;
    if (!response.ok) logger.warn('captcha verification answered an error', { status: response.status });
  } catch (error) {
    logger.warn('captcha verification failed', { error: error instanceof Error ? error.message : String(error) });
    throw failed('recaptchaToken could not be verified right now; try again');
  }
  if (!(typeof verdict === 'object' && verdict !== null && (verdict as { success?: unknown }).success === true)) {
    throw failed('recaptchaToken did not verify: solve the captcha again and send the new token');
  }
  const { hostname } = verdict as { hostname?: unknown };
  if (!solvedOnAllowedSite(hostname, workspace, config.SVC_PUBLIC_URL)) {
    logger.warn('captcha solved on a site the workspace does not allow', { hostname: typeof hostname === 'string' ? hostname : null });
    throw failed('recaptchaToken was solved on a site this workspace does not allow bookings from');
  }
}

/** Whether siteverify's `hostname` is svc's own host or one the workspace's widget may book from. */
function solvedOnAllowedSite(hostname: unknown, workspace: { slug: string; domains: string[] }, publicUrl: string): boolean {
  if (typeof hostname !== 'string' || hostname === '') return false;
  if (hostname.toLowerCase() === new URL(publicUrl).hostname.toLowerCase()) return true;
  return isWidgetOriginAllowed(`https://${hostname}`, workspace, publicUrl);
}
