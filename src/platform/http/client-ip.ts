const PEER_ADDRESS = Symbol('svc.peerAddress');

type WithPeer = Request & { [PEER_ADDRESS]?: string };

/**
 * Hands the socket's peer address (what src/runtime's `serve` passes with each request) to the app with the
 * request it belongs to: `app.handle(withPeerAddress(request, peerAddress))`.
 */
export function withPeerAddress<R extends Request>(request: R, address: string | null | undefined): R {
  if (address) Object.defineProperty(request, PEER_ADDRESS, { value: address, enumerable: false });
  return request;
}

/** The peer address handed in with `request`, if any. */
export function peerAddressOf(request: Request): string | undefined {
  return (request as WithPeer)[PEER_ADDRESS];
}

/**
 * The client's address (docs/contract/limits.md): the socket's, or, behind a trusted proxy (SVC_TRUST_PROXY), the
 * last address in X-Forwarded-For: the one our own proxy appended, which the client cannot forge. `unknown`
 * for a request handed to the app without its peer address (in-process tests).
 */
export function clientAddress(request: Request, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get('x-forwarded-for');
    const last = forwarded
      ?.split(',')
      .map((part) => part.trim())
      .filter(Boolean)
      .at(-1);
    if (last) return last;
  }
  return peerAddressOf(request) ?? 'unknown';
}
