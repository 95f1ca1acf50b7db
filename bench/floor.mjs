// The start-up floor: node itself answering `initialize` and `tools/list` over stdio with canned
// JSON (no SDK, no schema, nothing read from disk). Spawned by the peers bench beside the real
// servers, through the same SDK client: what any Node stdio server pays before its own work.
process.stdin.setEncoding("utf8");
let buffer = "";
const INIT = {
  protocolVersion: "2025-06-18",
  capabilities: { tools: {} },
  serverInfo: { name: "floor", version: "0" },
};
const LIST = {
  tools: [{ name: "echo", description: "Echo", inputSchema: { type: "object", properties: {} } }],
};
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
    const message = JSON.parse(buffer.slice(0, end));
    buffer = buffer.slice(end + 1);
    if (message.id === undefined) continue;
    const result = message.method === "initialize" ? INIT : message.method === "tools/list" ? LIST : {};
    process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: message.id, result })}\n`);
  }
});
