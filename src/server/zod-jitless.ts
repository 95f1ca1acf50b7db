/**
 * Imported first by ./stdio.ts, so it runs before the SDK's message schemas are built: zod then
 * parses them without compiling a fast path per object schema (`new Function` on each schema's
 * first parse). On the stdio start path (dist/stdio.cjs, its own copy of zod) that compiling was
 * a few ms of every start, and the messages are small enough that the compiled path gains nothing
 * per call (docs/benchmarks.md, issue 33). The tools' schemas live in the runtime's chunks, whose
 * zod keeps its default.
 */
import * as z from "zod";

z.config({ jitless: true });
