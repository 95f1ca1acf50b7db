/**
 * Which revision a stdio client speaks, from its first message: one that carries the 2026-07-28
 * `_meta` envelope (`io.modelcontextprotocol/protocolVersion`) opens the new era; anything else
 * (`initialize`, a line that is not JSON) the 2025 one, served as before. The line is read, then
 * put back on stdin for the transport that serves the process. Plain JSON, no SDK: a 2025 client
 * never loads the v2 packages.
 */
import { Readable } from "node:stream";

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
 * process's transport reads: stdin itself, paused, with what was read put back in front
 * (`unshift`), so every later line reaches the transport with no stream in between. The caller
 * resumes it once its transport listens (a paused stream does not start flowing on a new
 * listener). Stdin ending first: the 2025 path on a stream holding what was read (which then ends too).
 */
export function firstMessageEra(stdin: Readable): Promise<{ era: "modern" | "legacy"; input: Readable }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const settle = () => {
      stdin.off("data", onData);
      stdin.off("end", settle);
      const read = Buffer.concat(chunks);
      const input = stdin.readableEnded ? Readable.from([read], { objectMode: false }) : stdin.pause();
      if (input === stdin && read.length > 0) stdin.unshift(read);
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
