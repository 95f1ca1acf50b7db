/**
 * undici parses HTTP with llhttp, compiled to WebAssembly. V8 starts it on its baseline compiler
 * and, once it has run a little (after a process's first request), compiles llhttp's one giant
 * parsing function again with its optimizing compiler on a background thread: 130–350 ms of CPU
 * (Node 20 and 22, measured on the stdio server's first call), which a short-lived process — a
 * spawned stdio server, `call` — never earns back on responses of a few kB. A larger tiering budget
 * leaves that to a process that has parsed much more (a long session, the HTTP server under load).
 * Imported for its effect by src/cli.ts, first: V8 refuses a code cache written under other
 * flags, so the flag is set before anything is compiled with one (src/cli/code-cache.ts, Node 22's
 * compile cache), and so before undici compiles llhttp. Set only on the Node lines where V8 is
 * known to have the flag: V8 prints an unknown flag on stdout, which on stdio is the protocol's
 * stream.
 */
import { setFlagsFromString } from "node:v8";

/** V8's default is 1.8 M (Node 20) and 13 M (Node 22) "bytes executed" before tiering up. */
const TIERING_BUDGET = 200_000_000;

if (/^v(20|22)\./.test(process.version)) setFlagsFromString(`--wasm-tiering-budget=${TIERING_BUDGET}`);
