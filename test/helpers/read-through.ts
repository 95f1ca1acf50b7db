/**
 * A handle for a fixture started in `beforeAll`: it reads through to the started object (methods
 * bound to it), so a test file holds it from its top level and uses it as the object itself.
 */
import { afterAll, beforeAll } from "vitest";

export function readThrough<T extends object>(current: () => T | undefined, what: string): T {
  return new Proxy({} as T, {
    get(_target, name) {
      const started = current();
      if (!started) throw new Error(`${what} runs from beforeAll to afterAll: use it in a test or hook`);
      const value = Reflect.get(started, name);
      return typeof value === "function" ? value.bind(started) : value;
    },
  });
}

/** `start()` in `beforeAll`, `stop(it)` in `afterAll`; the handle reads through to what started. */
export function useStarted<T extends object>(
  what: string,
  start: () => Promise<T>,
  stop: (started: T) => Promise<void>,
): T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    if (started) await stop(started);
    started = undefined;
  });
  return readThrough(() => started, what);
}
