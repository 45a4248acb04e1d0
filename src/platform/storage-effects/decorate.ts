import type { Storage } from '../../ports/storage/index.ts';

/**
 * `storage` with some methods replaced; every other member passes through, bound to the original. Assigning a
 * method on the result (as a test does to make a call slow or fail) replaces it on the result itself: passed
 * through to the original, the replacement would be wrapped by its own override and call itself forever.
 */
export function decorateStorage(storage: Storage, overrides: Partial<Storage>): Storage {
  return new Proxy(storage, {
    get(target, property, receiver) {
      if (typeof property === 'string' && Object.hasOwn(overrides, property)) return overrides[property as keyof Storage];
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    set(_target, property, value) {
      (overrides as Record<PropertyKey, unknown>)[property] = value;
      return true;
    },
  });
}

/** `write`, followed (whether it succeeded or threw) by `effect` with the same arguments. */
export function thenAlways<A extends unknown[], R>(write: (...args: A) => Promise<R>, effect: (...args: A) => void) {
  return async (...args: A): Promise<R> => {
    try {
      return await write(...args);
    } finally {
      effect(...args);
    }
  };
}
