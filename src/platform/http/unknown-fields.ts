import type { TObject } from '@sinclair/typebox';
import { validation } from '../../core/errors.ts';

/**
 * A `transform` hook that refuses a JSON body naming a field the route does not know, with a 400 naming it
 * (docs/contract/panel.md): the app's validator drops unknown properties silently, which would hide a typo.
 */
export function refuseUnknownFields(schema: TObject) {
  const known = Object.keys(schema.properties);
  return ({ body }: { body: unknown }) => {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
    const unknown = Object.keys(body).find((field) => !known.includes(field));
    if (unknown === undefined) return;
    const message = `${unknown} is not a field of this request; the fields are ${known.join(', ')}`;
    throw validation(message, [{ path: `/${unknown}`, message }]);
  };
}
