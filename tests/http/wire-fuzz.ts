import { expect } from 'bun:test';
import fc from 'fast-check';
import { ERROR_STATUS } from '../../src/core/errors.ts';
import { untilClosed } from './raw-http.ts';

/*
 * The fuzz below the app: malformed request lines, versions, headers, framings and bodies written as raw bytes
 * to `svc serve`'s own server, so that what the runtime's HTTP parser refuses is covered too. Whatever arrives:
 * never a 5xx, every error answer the app gives in the contract's body, and a service is written exactly when
 * the answer says it was. On Deno (node:http) svc answers the parser's refusals too, with the contract's body;
 * on Bun its parser answers them itself, before svc sees the request: a bare status line (BUN_REFUSAL), or for a
 * method it does not know no answer at all.
 */

/** The head of an answer Bun.serve's parser writes itself: a 4xx (or 505) status line and `Connection: close`, no body. */
const BUN_REFUSAL = /^HTTP\/1\.1 (400|413|431|505) [A-Za-z ]+\r\nConnection: close$/;
/** the methods Bun's parser knows: another gets no answer, the connection closes */
const BUN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);

const validService = JSON.stringify({ name: 'Wire', duration: 30, price: 10, currency: 'EUR' });

/** mostly what a client sends (seven times in eight), sometimes one of the others */
function mostly<T>(usual: T, ...others: T[]): fc.Arbitrary<T> {
  return fc.oneof({ arbitrary: fc.constant(usual), weight: 7 }, { arbitrary: fc.constantFrom(...others), weight: 1 });
}

const method = mostly('POST', 'GET', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'FOO', 'get');
/** the route the fuzz writes through: a 200 to a POST there has created a service */
const servicesOf = (slug: string) => `/api/v1/workspaces/${slug}/services`;

const target = (slug: string) => {
  const SERVICES = servicesOf(slug);
  return mostly(
    SERVICES,
    `/api/v1/workspaces/${slug}`,
    `/api/v1/workspaces/${slug}/config`,
    '/healthz',
    '*',
    `http://svc.example${SERVICES}`,
    `${SERVICES}?x=%ZZ`,
    '/api/v1/workspaces/%E0%A4%A/services',
    `${SERVICES}#fragment`,
    `/api/v1/workspaces/${slug}/ser vices`,
    `/${'a'.repeat(17_000)}`,
  );
};
const version = mostly('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1x', 'HTTP/1', '');
/** headers that change nothing about how the body is framed: the usual three, each maybe odd or left out, and some odd ones */
const headers = (apiKey: string) =>
  fc
    .tuple(
      mostly<string | null>('Host: localhost', null, 'Host:', 'Host: a b', 'Host: localhost\r\nHost: other.example'),
      mostly<string | null>(`x-svc-api-key: ${apiKey}`, null, 'x-svc-api-key: wrong', 'Authorization: Bearer not-a-session'),
      mostly<string | null>('Content-Type: application/json', null, 'Content-Type: text/plain', 'Content-Type: application/json; charset=latin1'),
      fc.array(
        fc.constantFrom(
          'Expect: 100-continue',
          'Expect: something-else',
          'Content-Encoding: gzip',
          'X-Nul: a\0b',
          'X-Fold: a\r\n b',
          'NoColonHere',
          ' Leading: space',
          'Origin: https://evil.example',
          `X-Big: ${'a'.repeat(17_000)}`,
          'Accept-Encoding: gzip, br',
        ),
        { maxLength: 2 },
      ),
    )
    .map(([host, credential, contentType, odd]) => [host, credential, contentType, ...odd].filter((line): line is string => line !== null));
const body = mostly(validService, '', '{"name":', '{"name":"\\u0000"}', '\0\xff\xfe', '[]', 'null', `{"name":"${'x'.repeat(70_000)}"}`);
/** how the body is framed: its true length, a false or broken length, chunked (well or badly) */
const framing = mostly('length', 'chunked', 'bad-chunk', 'length-and-chunked', 'negative-length', 'junk-length', 'gzip-coding');
const lineEnd = mostly('\r\n', '\n');

interface WireRequest {
  bytes: string;
  method: string;
  /**
   * the request line's third word is HTTP/1.0 or HTTP/1.1 and lines end in CRLF: anything else may be 505 HTTP
   * Version Not Supported (Bun's parser reads a bare LF after the version as part of it)
   */
  servedVersion: boolean;
}

function build(slug: string, apiKey: string) {
  return fc.record({ method, target: target(slug), version, headers: headers(apiKey), body, framing, lineEnd }).map((parts): WireRequest => {
    const end = parts.lineEnd;
    const framingHeaders: Record<string, string[]> = {
      length: [`Content-Length: ${Buffer.byteLength(parts.body, 'latin1')}`],
      chunked: ['Transfer-Encoding: chunked'],
      'bad-chunk': ['Transfer-Encoding: chunked'],
      'length-and-chunked': ['Content-Length: 4', 'Transfer-Encoding: chunked'],
      'negative-length': ['Content-Length: -1'],
      'junk-length': ['Content-Length: 1x'],
      'gzip-coding': ['Transfer-Encoding: gzip'],
    };
    const framed =
      parts.framing === 'chunked'
        ? `${parts.body ? `${Buffer.byteLength(parts.body, 'latin1').toString(16)}${end}${parts.body}${end}` : ''}0${end}${end}`
        : parts.framing === 'bad-chunk'
          ? `zz${end}${parts.body}${end}0${end}${end}`
          : parts.body;
    const lines = [
      [parts.method, parts.target, parts.version].filter(Boolean).join(' '),
      ...parts.headers,
      ...framingHeaders[parts.framing]!,
      'Connection: close',
      '',
      '',
    ];
    const [, , lineVersion, ...more] = lines[0]!.split(' ');
    const servedVersion = more.length === 0 && (lineVersion === 'HTTP/1.1' || lineVersion === 'HTTP/1.0') && end === '\r\n';
    return { bytes: lines.join(end) + framed, method: parts.method, servedVersion };
  });
}

interface WireAnswer {
  status: number;
  contentType: string;
  body: string;
  /** Bun's parser wrote it (BUN_REFUSAL): svc never saw the request */
  bunRefusal: boolean;
}

/** The final answers in what the server sent (interim 100 Continue answers left out). */
function answers(received: string, method: string): WireAnswer[] {
  const found: WireAnswer[] = [];
  let rest = received;
  while (rest.length > 0) {
    const headEnd = rest.indexOf('\r\n\r\n');
    const statusLine = /^HTTP\/1\.1 (\d{3}) /.exec(rest);
    if (headEnd < 0 || !statusLine) throw new Error(`not an HTTP answer: ${JSON.stringify(rest.slice(0, 200))}`);
    const head = rest.slice(0, headEnd);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    const status = Number(statusLine[1]);
    // an answer to HEAD has no body, but a refusal of the parser, which never knew the method, does
    const bodiless = method === 'HEAD' && found.length === 0 && (rest.length === headEnd + 4 || rest.startsWith('HTTP/1.1 ', headEnd + 4));
    const bodyLength = bodiless ? 0 : length;
    if (status !== 100)
      found.push({
        status,
        contentType: /\r\ncontent-type: *([^\r]*)/i.exec(head)?.[1] ?? '',
        body: rest.slice(headEnd + 4, headEnd + 4 + bodyLength),
        bunRefusal: BUN_REFUSAL.test(head),
      });
    rest = rest.slice(headEnd + 4 + (status === 100 ? 0 : bodyLength));
  }
  return found;
}

/**
 * Sends `runs` random raw requests to the server on `port`, most of them POSTs that create a service in the
 * workspace `slug` with `apiKey`, and checks every answer: never a 5xx (but 505 for a version the request line
 * does not name right), every error in the contract's body, but on `runtime` bun the refusals of Bun's parser.
 * `countServices` reads the workspace's services from the database: it must grow by exactly the number of 200
 * answers to those POSTs.
 */
export async function fuzzTheWire(options: {
  port: number;
  slug: string;
  apiKey: string;
  countServices: () => Promise<number>;
  runs: number;
  runtime: 'bun' | 'deno';
}) {
  const onBun = options.runtime === 'bun';
  const services = servicesOf(options.slug);
  const before = await options.countServices();
  let written = 0;
  await fc.assert(
    fc.asyncProperty(build(options.slug, options.apiKey), async (request) => {
      const received = await untilClosed(options.port, request.bytes, 5_000);
      const context = JSON.stringify(request.bytes.slice(0, 300));
      const all = answers(received, request.method);
      if (onBun && all.length === 0 && !BUN_METHODS.has(request.method)) return;
      expect(all.length, `no answer to ${context}`).toBeGreaterThan(0);
      const [first] = all;
      for (const answer of all) {
        if (answer.status === 505) expect(request.servedVersion, context).toBe(false);
        else expect(answer.status, context).toBeLessThan(500);
        // (after svc's answer to a request whose body it did not read, Bun's parser may refuse the rest)
        if (onBun && answer.bunRefusal) {
          expect({ body: answer.body, last: answer === all.at(-1) }, context).toEqual({ body: '', last: true });
          continue;
        }
        const headAnswer = answer === first && request.method === 'HEAD' && answer.body === '';
        if (answer.status < 400 || headAnswer) continue;
        expect(answer.contentType, context).toStartWith('application/json');
        const error = JSON.parse(answer.body);
        expect(error, context).toMatchObject({ success: false, error: expect.any(String) });
        expect(Object.keys(ERROR_STATUS), context).toContain(error.code);
      }
      if (request.method === 'POST' && first!.status === 200 && request.bytes.includes(services)) written++;
    }),
    { numRuns: options.runs },
  );
  expect(await options.countServices()).toBe(before + written);
  // the generator reaches the app too, not only the parser's refusals
  expect(written).toBeGreaterThan(0);
}
