/**
 * undici parses HTTP with llhttp, compiled to WebAssembly. V8 starts it on its baseline compiler
 * and, once it has run a little (after a process's first request), compiles llhttp's one giant
 * parsing function again with its optimizing compiler on a background thread: 130–350 ms of CPU
 * (Node 20 and 22, measured on the stdio server's first call), which a short-lived process — a
 * spawned stdio server, `call` — never earns back on responses of a few kB. A larger tiering budget
 * leaves that to a process that has parsed much more (a long session, the HTTP server under load).
 *
 * V8 refuses a code cache written under other flags, so the flag is set at one fixed point of each
 * command, before anything it compiles with a cache (src/cli.ts): first for `call`, `tools`,
 * `--http` and the sandbox; for the stdio server once its start path is compiled and its cache
 * written, before its first lazy part (src/cli/code-cache.ts), so `node:v8` is not loaded before
 * the handshake. Set only on the Node lines where V8 is known to have the flag: V8 prints an
 * unknown flag on stdout, which on stdio is the protocol's stream.
 */

import { createRequire } from "node:module";

/** V8's default is 1.8 M (Node 20) and 13 M (Node 22) "bytes executed" before tiering up. */
const TIERING_BUDGET = 200_000_000;

/** Raises V8's WebAssembly tiering budget for this process (idempotent). */
export function raiseWasmTieringBudget(): void {
  if (!/^v(20|22)\./.test(process.version)) return;
  // Required, not imported: from the CommonJS bin an `import()` would start Node's ES module loader.
  const { setFlagsFromString } = createRequire(import.meta.url)("node:v8") as typeof import("node:v8");
  setFlagsFromString(`--wasm-tiering-budget=${TIERING_BUDGET}`);
}
