// The attacker's flood in a process of its own (bench/attack-caps.mjs): the victim's probes are
// timed in the bench's process, so the flood's own client work must not slow them down. Run as a
// script: `node attack-flood.mjs URL TOKEN COUNT`; it opens one session, keeps COUNT serp_search
// calls in flight (raw JSON-RPC POSTs; a refused call waits the retry_after it was given), prints
// `{"ready":true}` once the first wave is sent, and on stdin's end prints what the first wave saw.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, token, countText] = process.argv.slice(2);
const count = Number(countText);
const client = new Client({ name: "bench-flood", version: "1" });
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { authorization: `Bearer ${token}` } },
});
await client.connect(transport);
const headers = {
  authorization: `Bearer ${token}`,
  "mcp-session-id": transport.sessionId,
  "mcp-protocol-version": "2025-11-25",
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};
let stop = false;
let id = 1;
const first = { answered: 0, refused: 0, failed: 0, refusal: "", lastMs: 0 };
const started = performance.now();

/** One call: "answered", or the refusal's text and retry_after. */
async function call(i) {
  const body = {
    jsonrpc: "2.0",
    id: ++id,
    method: "tools/call",
    params: { name: "serp_search", arguments: { search_engine: "engine1_search", query: `flood ${i}` } },
  };
  const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
  const text = await response.text();
  const line = text.split("\n").find((l) => l.startsWith("data:") && l.includes('"result"'));
  const message = line ? JSON.parse(line.slice(5)) : JSON.parse(text.trim() || "{}");
  const result = message.result;
  if (!result) return { failed: `HTTP ${response.status} ${text.slice(0, 100)}` };
  if (!result.isError) return { answered: true };
  return {
    refusal: result.content?.[0]?.text ?? "",
    retryAfter: result._meta?.["web-data/error"]?.retry_after,
  };
}

async function worker(i) {
  for (let round = 0; round === 0 || !stop; round++) {
    const r = await call(i).catch((error) => ({ failed: String(error?.message ?? error) }));
    if (round === 0) {
      first.lastMs = Math.max(first.lastMs, performance.now() - started);
      if (r.answered) first.answered++;
      else if (r.failed) {
        first.failed++;
        first.refusal ||= r.failed;
      } else {
        first.refused++;
        first.refusal ||= r.refusal.slice(0, 160);
      }
    }
    if (!r.answered && !stop) await new Promise((resolve) => setTimeout(resolve, (r.retryAfter ?? 1) * 1000));
  }
}

const workers = Array.from({ length: count }, (_, i) => worker(i));
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
process.stdin.resume();
process.stdin.on("end", async () => {
  stop = true;
  await Promise.all(workers);
  process.stdout.write(`${JSON.stringify(first)}\n`);
  await transport.terminateSession().catch(() => {});
  process.exit(0);
});
