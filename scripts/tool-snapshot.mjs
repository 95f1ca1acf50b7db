// Records what the stdio server answers to `initialize` and `tools/list` into dist/startup-snapshot.json,
// so src/server/fast-start.ts can answer both before zod, the SDK, ajv and undici are loaded.
// Run by `npm run build` after tsc and the bundle; it imports the tsc output (dist/**) and never
// touches the network: the server gets every static toolset (legacy included) and no extensions
// (the agent catalog's extension adds only `agent_<name>` tools). Those are listed by the front
// from the catalog cache's sidecar, or on a cold start from `agentTemplate`: the permissive
// `agent_<name>` entry rendered by the real extension for a placeholder name, kept only when filling
// it in gives byte for byte what the server lists for other names.
import { writeFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { agentsExtension } from "../dist/agents/extension.js";
import { fillAgentTemplate } from "../dist/agents/permissive-template.js";
import { loadConfig } from "../dist/config.js";
import { createServer } from "../dist/server/create-server.js";
import { VERSION } from "../dist/server/version.js";
import { ALL_TOOLS } from "../dist/tools/registry.js";

const OUT = new URL("../dist/startup-snapshot.json", import.meta.url);
const PLACEHOLDER = "agent-name-placeholder-7f3a";
/** Names the template must reproduce: short, with dots and dashes, and cut at 64 characters. */
const SAMPLES = ["a", "news.article-v2", `long_${"x".repeat(70)}`];

const env = {
  WEBDATA_API_KEY: "snapshot-key",
  // The discard port: should anything try to fetch, it fails at once instead of reaching a service.
  WEBDATA_BASE_URL: "http://127.0.0.1:9",
  WEBDATA_LEGACY_AUTH: "snapshot:snapshot",
  WEBDATA_TOOLSETS: "all",
};

/** The exact `initialize` and `tools/list` results as the server sends them (a client's parsing could add or drop members). */
async function answers(options) {
  const app = createServer({ stderrLevel: "error", ...options });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const sent = new Map();
  const send = serverSide.send.bind(serverSide);
  serverSide.send = (message, sendOptions) => {
    if ("id" in message && "result" in message) sent.set(message.id, structuredClone(message.result));
    return send(message, sendOptions);
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
  return { init, list };
}

/**
 * The permissive agent tool as a template, or undefined (with a warning: the front then leaves cold
 * starts with agent tools to the full server) when the name is not all that differs between names.
 * The real extension renders them: no catalog cache (sandbox mode), no reachable catalog.
 */
async function agentTemplate() {
  const names = [PLACEHOLDER, ...SAMPLES];
  const config = loadConfig({ ...env, WEBDATA_AGENT_TOOLS: names.join(",") }, { sandbox: true });
  const { list } = await answers({ config, tools: [], extensions: [agentsExtension] });
  if (list.tools.length !== names.length) throw new Error("tool-snapshot: permissive agent tools not listed");
  const template = { placeholder: PLACEHOLDER, tool: list.tools[0] };
  const differing = SAMPLES.filter(
    (name, i) => JSON.stringify(fillAgentTemplate(template, name)) !== JSON.stringify(list.tools[i + 1]),
  );
  if (differing.length === 0) return template;
  process.stderr.write(
    `tool-snapshot: the permissive agent tool is not a fill-in of its name (${differing.join(", ")}); ` +
      "cold starts with WEBDATA_AGENT_TOOLS will list from the full server\n",
  );
  return undefined;
}

const { init, list } = await answers({ config: loadConfig(env), extensions: [] });
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
  agentTemplate: await agentTemplate(),
};
writeFileSync(OUT, `${JSON.stringify(snapshot)}\n`);
