import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Server as NetServer, type AddressInfo, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { ErrorCode } from '../../core/errors.ts';
import { answerClientError, IDLE_TIMEOUT_SECONDS, internalErrorResponse, REQUEST_TIMEOUT_ANSWER } from './connections.ts';
import type { HttpServer, ServeOptions } from './types.ts';

/*
 * The server on Deno: node:http, which Deno implements. Deno.serve was tried first and left: its graceful
 * shutdown ends the body of a request still arriving (the handler reads a truncated body and answers 400) and
 * drops a request whose head is half received. Here stop() behaves as Bun.serve's stop(false): no new
 * connections, requests received in whole or in part are answered, idle keep-alive connections close at once;
 * stopAccepting() closes only the listener.
 */

/** The request's absolute URL: `Host` and the raw target, or localhost when the Host is missing or unusable. */
function requestUrl(incoming: IncomingMessage): string {
  const target = incoming.url ?? '/';
  const path = target.startsWith('/') ? target : '/';
  const candidates = target.startsWith('/') ? [`http://${incoming.headers.host ?? 'localhost'}${target}`] : [target];
  candidates.push(`http://localhost${path}`);
  for (const candidate of candidates) {
    if (URL.canParse(candidate)) return candidate;
  }
  return 'http://localhost/';
}

function toRequest(incoming: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) headers.append(raw[index]!, raw[index + 1]!);
  const method = incoming.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(requestUrl(incoming), {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(incoming) as unknown as ReadableStream<Uint8Array>) : undefined,
    signal,
    duplex: 'half',
  } as RequestInit);
}

/**
 * Writes `response` to `outgoing`. A body that arrives as one chunk (every string or byte body) is sent with
 * Content-Length, as Bun.serve does; a longer stream is sent chunked as it comes.
 */
async function writeResponse(response: Response, outgoing: ServerResponse): Promise<void> {
  outgoing.statusCode = response.status;
  if (response.statusText) outgoing.statusMessage = response.statusText;
  for (const [name, value] of response.headers) {
    if (name !== 'set-cookie') outgoing.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) outgoing.setHeader('set-cookie', cookies);
  if (!response.body) {
    outgoing.end();
    return;
  }
  const reader = response.body.getReader();
  const first = await reader.read();
  const second = first.done ? first : await reader.read();
  if (second.done) {
    const bytes = first.value ?? new Uint8Array();
    if (!outgoing.hasHeader('content-length') && !outgoing.hasHeader('transfer-encoding')) outgoing.setHeader('content-length', bytes.byteLength);
    outgoing.end(bytes);
    return;
  }
  // waits for the socket to take more, or to close (the client left)
  const write = (chunk: Uint8Array) =>
    new Promise<void>((resolve) => {
      if (outgoing.write(chunk)) return resolve();
      const done = () => {
        outgoing.off('drain', done).off('close', done);
        resolve();
      };
      outgoing.on('drain', done).on('close', done);
    });
  await write(first.value!);
  await write(second.value);
  for (let next = await reader.read(); !next.done && !outgoing.destroyed; next = await reader.read()) await write(next.value);
  if (outgoing.destroyed) await reader.cancel();
  else outgoing.end();
}

/** What an HTTP/1.1 request without `Host` gets: 400 and the contract's error body, the connection closing. */
function missingHostResponse(): Response {
  const body = JSON.stringify({ success: false, error: 'an HTTP/1.1 request must send a Host header', code: 'VALIDATION_ERROR' satisfies ErrorCode });
  return new Response(body, { status: 400, headers: { 'content-type': 'application/json;charset=utf-8', connection: 'close' } });
}

/** How often the connections are checked for a request head past its deadline, ms. */
const HEAD_DEADLINE_CHECK_MS = 500;

/** `node:http`'s server; the peer address is the socket's `remoteAddress`. It sets no request body limit. */
export function nodeHttpServe(options: ServeOptions): Promise<HttpServer> {
  let pending = 0;
  /**
   * Every open connection, with how many bytes it had read when its last answer was written (0 when new): a
   * connection that has read more since holds (part of) its next request, so it is not idle. node:http's own
   * close() takes a keep-alive connection with half a request head for idle and closes it unanswered.
   */
  const connections = new Map<Socket, number>();
  /** connections with a request being answered: only these may stay quiet past the idle timeout */
  const answering = new Set<Socket>();
  const answer = async (incoming: IncomingMessage, outgoing: ServerResponse) => {
    if (incoming.httpVersion === '1.1' && incoming.headers.host === undefined) {
      // RFC 9112 section 3.2, as Bun's parser does, but with the contract's error body
      outgoing.shouldKeepAlive = false;
      await writeResponse(missingHostResponse(), outgoing).catch(() => outgoing.destroy());
      return;
    }
    pending++;
    const socket = incoming.socket;
    answering.add(socket);
    const aborted = new AbortController();
    outgoing.once('finish', () => connections.set(socket, socket.bytesRead));
    // the client went away before the whole answer was written
    outgoing.once('close', () => {
      if (!outgoing.writableFinished) aborted.abort();
    });
    try {
      const response = await options.fetch(toRequest(incoming, aborted.signal), socket.remoteAddress);
      await writeResponse(response, outgoing);
    } catch {
      // the app answers its own errors: the handler threw (a bug), or the answer could not be written (the client left)
      if (!outgoing.headersSent) await writeResponse(internalErrorResponse(), outgoing).catch(() => outgoing.destroy());
      else outgoing.destroy();
    } finally {
      pending--;
      answering.delete(socket);
    }
  };
  // HTTP/1.1 without Host is refused above with the contract's body rather than node:http's bare 400
  const server = createServer({ requireHostHeader: false }, answer);
  // an expectation other than 100-continue is ignored, as Bun.serve does, rather than refused with node:http's bare 417
  server.on('checkExpectation', answer);
  server.on('clientError', answerClientError);
  /**
   * Connections holding part of a request that is not being answered yet, since when (performance.now()). A head
   * that stops arriving, or that trickles in a byte at a time and never ends, gets 408 once it has been
   * incomplete for IDLE_TIMEOUT_SECONDS: the idle timeout alone would close the first without an answer and
   * never close the second (Deno's node:http keeps no deadline of its own for a request head).
   */
  const partialSince = new Map<Socket, number>();
  const holdsPartialRequest = (socket: Socket) => !answering.has(socket) && socket.bytesRead > (connections.get(socket) ?? 0);
  const timeOut = (socket: Socket) => {
    partialSince.delete(socket);
    if (holdsPartialRequest(socket)) socket.end(REQUEST_TIMEOUT_ANSWER);
    else socket.destroy();
  };
  const headDeadlines = setInterval(() => {
    const now = performance.now();
    for (const socket of connections.keys()) {
      if (!holdsPartialRequest(socket)) partialSince.delete(socket);
      else if (!partialSince.has(socket)) partialSince.set(socket, now);
      else if (now - partialSince.get(socket)! >= IDLE_TIMEOUT_SECONDS * 1000) timeOut(socket);
    }
  }, HEAD_DEADLINE_CHECK_MS);
  headDeadlines.unref();
  server.on('close', () => clearInterval(headDeadlines));
  // node:http destroys a socket whose timeout fires unless the server has a 'timeout' listener: this one keeps
  // that for a request being answered, and leaves the others to timeOut, so that a 408 is written before the close.
  server.on('timeout', (socket: Socket) => {
    if (answering.has(socket)) socket.destroy();
  });
  server.on('connection', (socket: Socket) => {
    connections.set(socket, 0);
    socket.once('close', () => {
      connections.delete(socket);
      partialSince.delete(socket);
    });
    socket.setTimeout(IDLE_TIMEOUT_SECONDS * 1000, () => {
      if (!answering.has(socket)) timeOut(socket);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.hostname, () => {
      server.off('error', reject);
      let closed: Promise<void> | undefined;
      // net.Server's close: stop listening, call back once every connection has closed (node:http's own close()
      // would also close the connections it takes for idle)
      const stopAccepting = () => (closed ??= new Promise<void>((done) => NetServer.prototype.close.call(server, () => done())));
      resolve({
        port: (server.address() as AddressInfo).port,
        listenerClosesAlone: true,
        stopAccepting: () => void stopAccepting(),
        stop: () => {
          const stopped = stopAccepting();
          for (const [socket, readWhenIdle] of connections) if (socket.bytesRead === readWhenIdle) socket.destroy();
          return stopped;
        },
        forceStop: async () => {
          for (const socket of connections.keys()) socket.destroy();
          await closed;
        },
        pendingRequests: () => pending,
      });
    });
  });
}
