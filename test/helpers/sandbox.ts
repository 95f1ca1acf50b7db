/**
 * The sandbox fixture: one in-process sandbox (`startSandbox`, 127.0.0.1 on port 0) for a whole
 * test file (or describe block), started before its first test and closed after its last. The
 * returned handle reads through to that sandbox, so tests use it as the sandbox itself.
 */
import { afterAll, beforeAll } from "vitest";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/index.js";

export function useSandbox(options: SandboxOptions = {}): Sandbox {
  let started: Sandbox | undefined;
  beforeAll(async () => {
    started = await startSandbox({ host: "127.0.0.1", port: 0, ...options });
  });
  afterAll(async () => {
    await started?.close();
    started = undefined;
  });
  return new Proxy({} as Sandbox, {
    get(_target, name) {
      if (!started) throw new Error("the sandbox runs from beforeAll to afterAll: use it in a test or hook");
      const value = Reflect.get(started, name);
      return typeof value === "function" ? value.bind(started) : value;
    },
  });
}
