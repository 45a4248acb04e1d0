import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  /** the body as sent; JSON parsed when the answer says it is JSON */
  body: any;
  text: string;
}

/**
 * Opens a connection to `port`, writes `bytes` (maybe nothing, maybe half a request; one byte a character) and
 * then goes quiet; resolves with everything the server sent (one character a byte) once the connection closes,
 * however it closes. Rejects when it is still open after `giveUpMs`, if given.
 */
export function untilClosed(port: number, bytes: string, giveUpMs?: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' }, () => socket.write(Buffer.from(bytes, 'latin1')));
    const chunks: Buffer[] = [];
    const received = () => Buffer.concat(chunks).toString('latin1');
    const gaveUp =
      giveUpMs === undefined
        ? undefined
        : setTimeout(() => {
            socket.destroy();
            reject(new Error(`neither an answer nor a close within ${giveUpMs} ms; received ${JSON.stringify(received().slice(0, 200))}`));
          }, giveUpMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // a reset ends the connection as a close does: 'close' follows it
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(gaveUp);
      resolve(received());
    });
  });
}

/**
 * Whether a new TCP connection to `port` on 127.0.0.1 is taken ('accepted') or refused ('refused'). A fresh
 * socket, never one of fetch's pooled keep-alive connections: a request on a connection already open is owed an
 * answer even while svc drains, so fetch would say nothing about new connections.
 */
export function connects(port: number): Promise<'accepted' | 'refused'> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve('accepted');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNREFUSED' ? resolve('refused') : reject(error)));
  });
}

/** Three connections that go quiet: one sends nothing, one half a request head, one a request kept alive. */
export async function quietConnections(port: number): Promise<{ silent: string; halfHead: string; keptAlive: string }> {
  const [silent, halfHead, keptAlive] = await Promise.all([
    untilClosed(port, ''),
    untilClosed(port, 'GET /healthz HTTP/1.1\r\nHo'),
    untilClosed(port, 'GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n'),
  ]);
  return { silent, halfHead, keptAlive };
}

/**
 * Sends `request` (the exact bytes of one HTTP request) over a fresh TCP connection to `port` on 127.0.0.1,
 * optionally from `localAddress` (another loopback address), and reads one answer. Resolves when the answer's
 * Content-Length is in or the server closes the connection.
 */
export function rawRequest(port: number, request: string, options: { localAddress?: string } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: options.localAddress });
    let received = Buffer.alloc(0);
    let settled = false;
    const finish = () => {
      if (settled) return;
      const parsed = parse(received);
      if (!parsed) return;
      settled = true;
      socket.destroy();
      resolve(parsed);
    };
    socket.on('connect', () => socket.write(request));
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk as Buffer]);
      const parsed = parse(received);
      if (parsed?.complete) finish();
    });
    socket.on('close', () => {
      if (settled) return;
      const parsed = parse(received, true);
      if (parsed) {
        settled = true;
        resolve(parsed);
      } else {
        reject(new Error(`no HTTP answer, received ${JSON.stringify(received.toString('latin1').slice(0, 200))}`));
      }
    });
    socket.on('error', (error) => {
      if (!settled) reject(error);
    });
  });
}

const CONTINUE = Buffer.from('HTTP/1.1 100 Continue\r\n\r\n');

/**
 * POSTs `body` (JSON) to `path` with `apiKey` over a fresh connection, asking `Expect: 100-continue`, and sends
 * the body only once the server has answered `100 Continue` (as curl does; it gives up waiting after 1 s).
 * Rejects when the interim answer has not come within `patienceMs`, or another answer came instead.
 */
export function postAfterContinue(port: number, request: { path: string; apiKey: string; body: string }, patienceMs = 3000): Promise<RawResponse> {
  const head = [
    `POST ${request.path} HTTP/1.1`,
    'Host: localhost',
    `x-svc-api-key: ${request.apiKey}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(request.body)}`,
    'Expect: 100-continue',
    'Connection: close',
    '',
    '',
  ].join('\r\n');
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' }, () => socket.write(head));
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    const impatient = setTimeout(() => fail(new Error(`no 100 Continue within ${patienceMs} ms`)), patienceMs);
    let received = Buffer.alloc(0);
    let continued = false;
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk as Buffer]);
      if (!continued) {
        if (received.length < CONTINUE.length) return;
        clearTimeout(impatient);
        if (!received.subarray(0, CONTINUE.length).equals(CONTINUE))
          return fail(new Error(`answered before the body: ${JSON.stringify(received.toString('latin1').slice(0, 200))}`));
        continued = true;
        received = received.subarray(CONTINUE.length);
        socket.write(request.body);
      }
      const parsed = parse(received);
      if (parsed?.complete) {
        socket.destroy();
        resolve(parsed);
      }
    });
    socket.on('error', (error) => fail(error));
  });
}

function parse(bytes: Buffer, closed = false): (RawResponse & { complete: boolean }) | null {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = headers['content-length'] === undefined ? null : Number(headers['content-length']);
  const bodyBytes = bytes.subarray(end + 4);
  const complete = length === null ? closed : bodyBytes.length >= length;
  if (!complete && !closed) return { status: 0, headers, body: null, text: '', complete: false };
  const text = bodyBytes.subarray(0, length ?? bodyBytes.length).toString('utf8');
  const body = (headers['content-type'] ?? '').includes('json') && text ? JSON.parse(text) : text;
  return { status: Number(statusLine!.split(' ')[1]), headers, body, text, complete: true };
}

/**
 * Two requests whose bodies are over 64 KiB and never finish arriving, without `Connection: close`: one declares
 * its length and sends 1 KiB of it, one is chunked and sends 70 KiB with no last chunk. The server owes each a
 * 413 and then a close: the rest of the body will not be read.
 */
export function unfinishedLargeBodies(path: string, apiKey: string): Record<'declared' | 'chunked', string> {
  const head = (framing: string) =>
    [`POST ${path} HTTP/1.1`, 'Host: localhost', `x-svc-api-key: ${apiKey}`, 'Content-Type: application/json', framing, '', ''].join('\r\n');
  return {
    declared: `${head('Content-Length: 100000')}${'x'.repeat(1024)}`,
    chunked: `${head('Transfer-Encoding: chunked')}${(70 * 1024).toString(16)}\r\n${'x'.repeat(70 * 1024)}\r\n`,
  };
}

/** The head of a raw answer: its status and its headers, names in lower case. */
export function headOf(answer: string): { status: number; headers: Record<string, string> } {
  const [statusLine = '', ...lines] = answer.slice(0, answer.indexOf('\r\n\r\n')).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers };
}
