/**
 * The sandbox fixture: one in-process sandbox (`startSandbox`, 127.0.0.1 on port 0) for a whole
 * test file (or describe block), started before its first test and closed after its last. The
 * returned handle reads through to that sandbox, so tests use it as the sandbox itself.
 */
import { type Sandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/index.js";
import { useStarted } from "./read-through.js";

export function useSandbox(options: SandboxOptions = {}): Sandbox {
  return useStarted(
    "the sandbox",
    () => startSandbox({ host: "127.0.0.1", port: 0, ...options }),
    (sandbox) => sandbox.close(),
  );
}
