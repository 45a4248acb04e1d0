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
   * Whether the listener closes alone, the open connections staying open (idle keep-alive ones included):
   * node:http (Deno) can; Bun.serve cannot, its only way to close the listener (stop) also closes the idle
   * keep-alive connections, losing a request written on one that the server has not read yet.
   */
  listenerClosesAlone: boolean;
  /**
   * Refuses new connections from now on. Where `listenerClosesAlone`, the open connections stay open and what
   * arrives on them is answered; on Bun.serve the idle keep-alive connections close too (those with a request
   * received in whole or in part stay until it is answered).
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
