/**
 * An Elysia `transform` for query integers: they arrive as strings and are made numbers before validation, so
 * the schema's own message names the parameter (`limit must be an integer between 1 and 100`). Anything but
 * digits is left for the schema to refuse.
 */
export function integerQuery(...names: string[]) {
  return ({ query }: { query: Record<string, unknown> }) => {
    for (const name of names) {
      const value = query[name];
      if (typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim())) query[name] = Number(value);
    }
  };
}
