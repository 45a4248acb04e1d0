export interface ServeOptions {
  /** TCP port; 0 picks a free one (HttpServer.port tells which) */
  port: number;
  /** address to bind, such as 0.0.0.0 or 127.0.0.1 */
  hostname: string;
  /** answers one request; `peerAddress` is the socket's remote address, when the runtime knows it */
  fetch(request: Request, peerAddress: string | undefined): Response | Promise<Response>;
}

/** A listening HTTP server. */
export interface HttpServer {
  /** the port it listens on (the one chosen when asked for 0) */
  port: number;
  /**
   * Stops accepting new connections and keeps the open ones open, answering what arrives on them: node:http
   * (Deno) can; Bun.serve cannot close its listener without closing its idle keep-alive connections, so on Bun
   * this does nothing and the listener closes at stop().
   */
  stopAccepting(): void;
  /**
   * Stops accepting connections at once and resolves when the requests already received have been answered;
   * idle keep-alive connections are closed.
   */
  stop(): Promise<void>;
  /** Closes every connection still open, answered or not, and resolves when stop() would have. */
  forceStop(): Promise<void>;
  /** requests received whose answer is not yet complete */
  pendingRequests(): number;
}
