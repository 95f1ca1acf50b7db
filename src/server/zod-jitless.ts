/**
 * Imported first by ./stdio.ts, so it runs before the SDK's message schemas are built: zod then
 * parses them without compiling a fast path per object schema (`new Function` on each schema's
 * first parse). On the stdio start path (dist/stdio.cjs, its own copy of zod) that compiling was
 * a few ms of every start, and the handshake's messages are parsed a few times at most.
 *
 * zod decides per schema, as it builds it, and keeps its config on `globalThis`, so one switch
 * covers every copy of it (the runtime's bundle has its own). Once the handshake is over the
 * stdio server turns the compiled path back on as the tools' runtime loads
 * (`compileParsers`): the schemas built from then on (the tools' arguments and results,
 * the API's answers, the SDK's `tools/call` result) are parsed on every call, and the compiled
 * path is about 50 µs of CPU less per call once the JIT is warm (docs/benchmarks.md, issue 33).
 */
import * as z from "zod";

z.config({ jitless: true });

/** zod compiles a fast path for each object schema built after this (its default). */
export function compileParsers(): void {
  z.config({ jitless: false });
}
