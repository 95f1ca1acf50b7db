// Records what the stdio server answers to `initialize` and `tools/list` into dist/startup-snapshot.json,
// so src/server/fast-start.ts can answer both before zod, the SDK, ajv and undici are loaded.
// Run by `npm run build` after tsc and the bundle; it imports the tsc output (dist/**) and never
// touches the network: the server gets every static toolset (legacy included) and no extensions
// (the agent catalog's extension adds only `agent_<name>` tools, and the fast front never answers
// `tools/list` when any are configured).
import { writeFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { loadConfig } from "../dist/config.js";
import { createServer } from "../dist/server/create-server.js";
import { VERSION } from "../dist/server/version.js";
import { ALL_TOOLS } from "../dist/tools/registry.js";

const OUT = new URL("../dist/startup-snapshot.json", import.meta.url);

const config = loadConfig({
  WEBDATA_API_KEY: "snapshot-key",
  // The discard port: should anything try to fetch, it fails at once instead of reaching a service.
  WEBDATA_BASE_URL: "http://127.0.0.1:9",
  WEBDATA_LEGACY_AUTH: "snapshot:snapshot",
  WEBDATA_TOOLSETS: "all",
});
const app = createServer({ config, extensions: [], stderrLevel: "error" });
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();

// The exact results as the server sends them (the client's parsing could add or drop members).
const sent = new Map();
const send = serverSide.send.bind(serverSide);
serverSide.send = (message, options) => {
  if ("id" in message && "result" in message) sent.set(message.id, structuredClone(message.result));
  return send(message, options);
};
await app.server.connect(serverSide);
const client = new Client({ name: "tool-snapshot", version: VERSION });
await client.connect(clientSide);
await client.listTools();
await client.close();
await app.close();

const results = [...sent.values()];
const init = results.find((r) => r && typeof r === "object" && "serverInfo" in r);
const list = results.find((r) => r && typeof r === "object" && Array.isArray(r.tools));
if (!init || !list) throw new Error("tool-snapshot: initialize or tools/list result not seen");
const { protocolVersion: _negotiated, ...initialize } = init;
const { tools, ...toolsList } = list;
const toolsets = new Map(ALL_TOOLS.map((t) => [t.name, t.toolset]));
const tagged = tools.map((tool) => {
  const toolset = toolsets.get(tool.name);
  if (!toolset) throw new Error(`tool-snapshot: ${tool.name} is not in the registry`);
  return { toolset, tool };
});
if (tagged.length !== ALL_TOOLS.length) throw new Error("tool-snapshot: tools/list misses registry tools");

const snapshot = {
  version: VERSION,
  latestProtocolVersion: LATEST_PROTOCOL_VERSION,
  supportedProtocolVersions: SUPPORTED_PROTOCOL_VERSIONS,
  initialize,
  toolsList,
  tools: tagged,
};
writeFileSync(OUT, `${JSON.stringify(snapshot)}\n`);
