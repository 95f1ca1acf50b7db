/**
 * Imported first by ./stdio.ts, so it runs before the SDK's message schemas are built: zod then
 * parses them without compiling a fast path per object schema (`new Function` on each schema's
 * first parse). On the stdio start path (dist/stdio.cjs, its own copy of zod) that compiling was
 * a few ms of every start, and the messages are small enough that the compiled path gains nothing
 * per call (docs/benchmarks.md, issue 33). zod keeps its settings on `globalThis`, so the
 * runtime's own copy (dist/runtime.cjs) reads this one too: a tool's argument and result objects
 * are built compiled on purpose (./tool-schemas.ts).
 */
import * as z from "zod";

z.config({ jitless: true });
