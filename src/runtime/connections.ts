import type { Socket } from 'node:net';

/** Bun.serve's own default, kept on both runtimes: a connection that sends nothing for this long is closed. */
export const IDLE_TIMEOUT_SECONDS = 10;

/** What the parser's refusal of a request that never reached the app gets: the status and the contract's error body. */
function clientErrorAnswer(code: string | undefined): string {
  const [status, reason, message] =
    code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'request headers are too large']
      : code === 'HPE_INVALID_VERSION'
        ? [505, 'HTTP Version Not Supported', 'only HTTP/1.0 and HTTP/1.1 are served']
        : code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW'
          ? [413, 'Content Too Large', 'chunk extensions are too large']
          : code === 'ERR_HTTP_REQUEST_TIMEOUT' || code === 'ERR_HTTP_HEADERS_TIMEOUT'
            ? [408, 'Request Timeout', 'the request did not arrive in time']
            : [400, 'Bad Request', 'the request is not valid HTTP/1.1'];
  const body = JSON.stringify({ success: false, error: message, code: 'VALIDATION_ERROR' });
  return `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

/**
 * node:http's `clientError` listener: a request the parser refuses (a bad request line or version, oversized
 * headers) never reaches the app, and still gets the contract's error body rather than the runtime's bare answer.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) socket.destroy();
  else socket.end(clientErrorAnswer(error.code));
}
