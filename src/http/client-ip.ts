import type { Server } from 'bun';

/**
 * The client's IP: the socket's address, or, behind a trusted proxy (SVC_TRUST_PROXY), the last address in
 * X-Forwarded-For — the one our own proxy appended, which the client cannot forge.
 */
export function clientIp(request: Request, server: Server<unknown> | null | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get('x-forwarded-for');
    const last = forwarded?.split(',').map((part) => part.trim()).filter(Boolean).at(-1);
    if (last) return last;
  }
  return server?.requestIP(request)?.address ?? 'unknown';
}
