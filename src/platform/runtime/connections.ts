import type { Socket } from 'node:net';
import type { ErrorCode } from '../../core/errors.ts';

/** Bun.serve's own default, kept on both runtimes: a connection that sends nothing for this long is closed. */
export const IDLE_TIMEOUT_SECONDS = 10;

type Refusal = [status: number, reason: string, code: ErrorCode, message: string];

/** The parser's error codes (llhttp's, as node:http names them) whose answer is not a plain 400. */
const REFUSALS = new Map<string | undefined, Refusal>([
  ['HPE_HEADER_OVERFLOW', [431, 'Request Header Fields Too Large', 'VALIDATION_ERROR', 'request headers are too large']],
  ['HPE_INVALID_VERSION', [505, 'HTTP Version Not Supported', 'VALIDATION_ERROR', 'only HTTP/1.0 and HTTP/1.1 are served, their lines ending in CRLF']],
  ['HPE_CHUNK_EXTENSIONS_OVERFLOW', [413, 'Content Too Large', 'PAYLOAD_TOO_LARGE', 'chunk extensions are too large']],
  ['ERR_HTTP_REQUEST_TIMEOUT', [408, 'Request Timeout', 'VALIDATION_ERROR', 'the request did not arrive in time']],
  ['ERR_HTTP_HEADERS_TIMEOUT', [408, 'Request Timeout', 'VALIDATION_ERROR', 'the request did not arrive in time']],
]);
const MALFORMED: Refusal = [400, 'Bad Request', 'VALIDATION_ERROR', 'the request is not valid HTTP/1.1'];

/** What the parser's refusal of a request that never reached the app gets: its status and the contract's error body. */
function clientErrorAnswer(parserCode: string | undefined): string {
  const [status, reason, code, message] = REFUSALS.get(parserCode) ?? MALFORMED;
  const body = JSON.stringify({ success: false, error: message, code });
  return `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

/**
 * What a connection gets whose request head (or a request's first bytes) has not arrived whole within
 * IDLE_TIMEOUT_SECONDS: 408 with the contract's body, the connection closing.
 */
export const REQUEST_TIMEOUT_ANSWER = clientErrorAnswer('ERR_HTTP_HEADERS_TIMEOUT');

/**
 * node:http's `clientError` listener: a request the parser refuses (a bad request line or version, oversized
 * headers) never reaches the app, and still gets the contract's error body rather than the runtime's bare answer.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) socket.destroy();
  // bytes after a request that said `Connection: close`: that request has its answer, and nothing more is owed
  else if (error.code === 'HPE_CLOSED_CONNECTION') socket.end();
  else socket.end(clientErrorAnswer(error.code));
}

/**
 * What a request gets when the app's handler throws instead of answering (the app answers its own errors, so
 * this is a bug): the contract's 500, never the runtime's error page, which shows source code.
 */
export function internalErrorResponse(): Response {
  const body = JSON.stringify({ success: false, error: 'internal error', code: 'INTERNAL_ERROR' satisfies ErrorCode });
  return new Response(body, { status: 500, headers: { 'content-type': 'application/json;charset=utf-8' } });
}
