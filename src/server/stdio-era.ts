/**
 * Which revision a stdio client speaks, from its first message: one that carries the 2026-07-28
 * `_meta` envelope (`io.modelcontextprotocol/protocolVersion`) opens the new era; anything else
 * (`initialize`, a line that is not JSON) the 2025 one, served as before. The line is read, then
 * put back on stdin for the transport that serves the process. Plain JSON, no SDK: a 2025 client
 * never loads the v2 packages.
 */
import { PassThrough, type Readable } from "node:stream";

export const PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";

/** True when `line` is a JSON-RPC message with the 2026-07-28 envelope claim. */
export function opensModernEra(line: string): boolean {
  try {
    const message = JSON.parse(line) as { params?: { _meta?: Record<string, unknown> } };
    return typeof message?.params?._meta?.[PROTOCOL_VERSION_KEY] === "string";
  } catch {
    return false;
  }
}

/**
 * Waits for stdin's first line and says whether it opens the new era, with the stream the
 * process's transport reads: everything read so far, then the rest of stdin (piped). Stdin ending
 * first: the 2025 path (which then ends too).
 */
export function firstMessageEra(stdin: Readable): Promise<{ era: "modern" | "legacy"; input: Readable }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const settle = () => {
      stdin.off("data", onData);
      stdin.off("end", settle);
      const read = Buffer.concat(chunks);
      const input = new PassThrough();
      if (read.length > 0) input.write(read);
      if (stdin.readableEnded) input.end();
      else stdin.pipe(input);
      const newline = read.indexOf(10);
      const first = read.subarray(0, newline < 0 ? read.length : newline).toString("utf8");
      resolve({ era: opensModernEra(first) ? "modern" : "legacy", input });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      if (chunk.includes(10)) settle();
    };
    stdin.on("data", onData);
    stdin.on("end", settle);
  });
}
