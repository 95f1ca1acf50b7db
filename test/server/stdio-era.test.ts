import { once } from "node:events";
import { PassThrough, type Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { firstMessageEra, PROTOCOL_VERSION_KEY } from "../../src/server/stdio-era.js";

const INITIALIZE = `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} })}\n`;
const MODERN = `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { [PROTOCOL_VERSION_KEY]: "2026-07-28" } } })}\n`;
const LIST = `${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" })}\n`;

/** Everything `input` yields once a reader listens and resumes it, as the transports do. */
async function readAll(input: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  input.on("data", (c: Buffer) => chunks.push(Buffer.from(c)));
  input.resume();
  await once(input, "end");
  return Buffer.concat(chunks).toString("utf8");
}

describe("firstMessageEra", () => {
  it("hands on every byte in order: the first line split over chunks, the lines after it, and what comes later", async () => {
    const stdin = new PassThrough();
    const era = firstMessageEra(stdin);
    stdin.write(INITIALIZE.slice(0, 20));
    stdin.write(INITIALIZE.slice(20) + LIST.slice(0, 10));
    const { era: which, input } = await era;
    expect(which).toBe("legacy");
    // Nothing flows until the transport listens: a line written now waits behind what was read.
    stdin.write(LIST.slice(10));
    stdin.end(LIST);
    expect(await readAll(input)).toBe(INITIALIZE + LIST + LIST);
  });

  it("opens the 2026-07-28 era on the envelope claim and still hands on that line", async () => {
    const stdin = new PassThrough();
    const era = firstMessageEra(stdin);
    stdin.end(MODERN + LIST);
    const { era: which, input } = await era;
    expect(which).toBe("modern");
    expect(await readAll(input)).toBe(MODERN + LIST);
  });

  it("ends on the 2025 path with what was read when stdin ends before a line does", async () => {
    const stdin = new PassThrough();
    const era = firstMessageEra(stdin);
    stdin.end('{"jsonrpc":"2.0"');
    const { era: which, input } = await era;
    expect(which).toBe("legacy");
    expect(await readAll(input)).toBe('{"jsonrpc":"2.0"');
  });
});
