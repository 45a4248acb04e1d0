import { Elysia } from 'elysia';
import { AppError } from '../../core/errors.ts';
import { rejectNulCharacters } from './nul-characters.ts';

/** Largest request body accepted, bytes. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * The 413 closes its connection: the rest of the body is still on its way and will not be read, so keeping the
 * connection alive would leave the socket open (until the idle timeout) with bytes nobody reads, and a next
 * request on it would be parsed from the middle of that body.
 */
const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', `request body must be at most ${MAX_BODY_BYTES / 1024} KiB`, undefined, { connection: 'close' });

/** Reads a body as text, refusing more than MAX_BODY_BYTES whether or not Content-Length says so. */
export async function readLimitedText(request: Request): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * JSON bodies for every route registered after this plugin: size-limited, objects only, and a parse failure is
 * the contract's 400. Routes that need the raw bytes (payment provider callbacks) are mounted before it in
 * src/app.ts, because a global onParse runs even for a route that declares `parse: 'none'`, and read the body
 * themselves with readLimitedText.
 */
export const bodyLimitPlugin = new Elysia({ name: 'body-limit' })
  .onParse({ as: 'global' }, async ({ request }) => {
    if (request.method === 'GET' || request.method === 'HEAD') return;
    const text = await readLimitedText(request);
    if (text.trim() === '') return undefined;
    const type = request.headers.get('content-type') ?? '';
    if (type.includes('application/x-www-form-urlencoded')) {
      const form = Object.fromEntries(new URLSearchParams(text));
      rejectNulCharacters(form, 'body');
      return form;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new AppError('VALIDATION_ERROR', 'request body is not valid JSON');
    }
    // Every svc request body is an object; refusing the rest here keeps a schema's optional body from taking "x".
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new AppError('VALIDATION_ERROR', 'request body must be a JSON object');
    rejectNulCharacters(parsed, 'body');
    return parsed;
  })
  .onTransform({ as: 'global' }, ({ params, query }) => {
    rejectNulCharacters(params, 'params');
    rejectNulCharacters(query, 'query');
  });
