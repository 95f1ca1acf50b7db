/**
 * The stdio server's fast front. Loading zod, the SDK, ajv and undici takes most of the start-up
 * time, so this module (which loads none of them) reads stdin itself and answers `initialize`,
 * `ping` and `tools/list` from the build-time snapshot (`dist/startup-snapshot.json`, written by
 * scripts/tool-snapshot.mjs), queuing every other message in order. Configured `agent_<name>`
 * tools are listed from the catalog cache's tool-list sidecar (src/agents/tool-list-sidecar.ts)
 * or, when the full server will start without a catalog, from the snapshot's permissive template;
 * when neither is sure, `tools/list` is left to the full server. The full server then gets a
 * `Transport` of ours: the recorded `initialize` (under an id of ours, so its answer is dropped)
 * and everything queued are replayed into it, and from then on the front only passes lines
 * through. Anything it is unsure of (an unparseable line, an unexpected shape, a second
 * `initialize`) is left to the SDK. Had the front listed agent tools the loaded server would not
 * list (e.g. a catalog cache rewritten meanwhile), the server sends `tools/list_changed`.
 */
import { readFileSync } from "node:fs";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { catalogCacheLocation } from "../agents/cache-files.js";
import { type AgentTemplate, fillAgentTemplate } from "../agents/permissive-template.js";
import { agentToolsForFront } from "../agents/tool-list-sidecar.js";
import type { Config } from "../config.js";
import { VERSION } from "./version.js";

interface Snapshot {
  version: string;
  latestProtocolVersion: string;
  supportedProtocolVersions: string[];
  initialize: Record<string, unknown>;
  toolsList: Record<string, unknown>;
  tools: Array<{ toolset: string; tool: unknown }>;
  /** The permissive `agent_<name>` entry; absent when it is not a plain fill-in of the name. */
  agentTemplate?: AgentTemplate;
}

type Json = Record<string, unknown>;

const MAX_BUFFER = 10 * 1024 * 1024; // the SDK's STDIO_DEFAULT_MAX_BUFFER_SIZE
/** Without a reason to load the full server sooner, load it this long after the front started. */
const IDLE_LOAD_MS = 50;

/** The snapshot beside the bundle (dist/cli.js) or one folder up (dist/server/, dist/chunks/). */
export function readSnapshot(): Snapshot | undefined {
  for (const rel of ["./startup-snapshot.json", "../startup-snapshot.json"]) {
    let text: string;
    try {
      text = readFileSync(new URL(rel, import.meta.url), "utf8");
    } catch {
      continue;
    }
    try {
      const s = JSON.parse(text) as Snapshot;
      const ok =
        s.version === VERSION &&
        typeof s.latestProtocolVersion === "string" &&
        Array.isArray(s.supportedProtocolVersions) &&
        isObject(s.initialize) &&
        isObject(s.toolsList) &&
        Array.isArray(s.tools) &&
        (s.agentTemplate === undefined ||
          (typeof s.agentTemplate.placeholder === "string" && isObject(s.agentTemplate.tool)));
      return ok ? s : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function parseOrUndefined(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** A request the SDK's strict JSON-RPC schema would accept at the top level. */
function asRequest(v: unknown): (Json & { id: string | number; method: string }) | undefined {
  if (!isObject(v) || v.jsonrpc !== "2.0" || typeof v.method !== "string") return undefined;
  if (!(typeof v.id === "string" || (typeof v.id === "number" && Number.isInteger(v.id)))) return undefined;
  if (Object.keys(v).some((k) => k !== "jsonrpc" && k !== "id" && k !== "method" && k !== "params"))
    return undefined;
  if (v.params !== undefined && !isObject(v.params)) return undefined;
  return v as Json & { id: string | number; method: string };
}

/** `initialize` params the SDK's schema accepts (conservatively: anything unusual goes to the SDK). */
function plainInitialize(params: unknown): params is { protocolVersion: string } {
  if (!isObject(params) || typeof params.protocolVersion !== "string") return false;
  const { capabilities, clientInfo } = params;
  if (!isObject(capabilities) || !Object.values(capabilities).every(isObject)) return false;
  if (!isObject(clientInfo) || typeof clientInfo.name !== "string" || typeof clientInfo.version !== "string")
    return false;
  return Object.keys(clientInfo).every((k) => k === "name" || k === "version" || k === "title");
}

/**
 * The `tools/list` result for this config: the snapshot's tools exactly as `selectTools()` picks
 * them, then the `agent_<name>` tools as the full server registers them at start (in the order
 * of WEBDATA_AGENT_TOOLS). Undefined when the agent tools are not known for sure.
 */
function toolsFor(snapshot: Snapshot, config: Config): Json | undefined {
  const wanted = new Set<string>(config.toolsets);
  const tools = snapshot.tools
    .filter((t) => wanted.has(t.toolset) && (t.toolset !== "legacy" || !!config.legacyAuth))
    .map((t) => t.tool);
  const agents = config.agentTools.length > 0 ? agentTools(snapshot, config) : [];
  return agents && { ...snapshot.toolsList, tools: [...tools, ...agents] };
}

function agentTools(snapshot: Snapshot, config: Config): unknown[] | undefined {
  try {
    const found = agentToolsForFront(
      catalogCacheLocation(config),
      config.baseUrl,
      config.agentTools,
      VERSION,
    );
    if (found?.kind === "cached") return found.tools;
    const template = snapshot.agentTemplate;
    if (found?.kind !== "cold" || !template) return undefined;
    const tools = config.agentTools.map((name) => fillAgentTemplate(template, name));
    // Two names cut to one tool name: the full server lists one of them.
    const names = new Set(tools.map((t) => t?.name));
    return tools.every((t) => t !== undefined) && names.size === tools.length ? tools : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Serves stdio like `runStdio()` (same signals, stdin end and rejection logging) with the fast
 * front. Returns false, having done nothing, when there is no usable snapshot.
 */
export async function runFastStdio(config: Config, onClose?: () => Promise<void>): Promise<boolean> {
  const snapshot = readSnapshot();
  if (!snapshot) return false;
  const listed = toolsFor(snapshot, config);
  /** A list the front answered with agent tools in it, for the loaded server to check. */
  let listedAgents: Json | undefined;

  // This is the stdio transport's writer, the only stdout writer in stdio mode: every message is
  // one serialized JSON-RPC line, from the front or the SDK, in call order. Logs go to stderr.
  const write = (message: unknown) =>
    new Promise<void>((resolve) => {
      if (process.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else process.stdout.once("drain", resolve);
    });

  let initialized = false;
  let replayId = 0;
  const dropped = new Set<string>();
  let queue: string[] = [];
  let deliver: ((line: string) => void) | undefined;
  let app: { close(): Promise<void>; logger: { error(m: string): void } } | undefined;

  const front = (line: string): void => {
    const parsed = parseOrUndefined(line);
    const request = asRequest(parsed);
    const method = isObject(parsed) ? parsed.method : undefined;
    if (request?.method === "initialize" && !initialized && plainInitialize(request.params)) {
      initialized = true;
      const asked = request.params.protocolVersion;
      const protocolVersion = snapshot.supportedProtocolVersions.includes(asked)
        ? asked
        : snapshot.latestProtocolVersion;
      void write({ jsonrpc: "2.0", id: request.id, result: { protocolVersion, ...snapshot.initialize } });
      // The SDK must still see it (client capabilities, protocol version); its answer is dropped.
      const id = `fast-start:${process.pid}:${Date.now()}:${++replayId}`;
      dropped.add(id);
      queue.push(JSON.stringify({ ...request, id }));
      return;
    }
    if (request?.method === "ping" && (request.params === undefined || onlyMeta(request.params))) {
      void write({ jsonrpc: "2.0", id: request.id, result: {} });
      return;
    }
    if (
      request?.method === "tools/list" &&
      initialized &&
      listed &&
      (request.params === undefined || onlyMeta(request.params))
    ) {
      void write({ jsonrpc: "2.0", id: request.id, result: listed });
      if (config.agentTools.length > 0) listedAgents = listed;
      startLoading();
      return;
    }
    queue.push(line);
    // Work only the full server can do: load it now.
    if (method !== "initialize" && method !== "notifications/initialized") startLoading();
  };

  const onLine = (line: string) => (deliver ? deliver(line) : front(line));

  let buffer: Buffer | undefined;
  process.stdin.on("data", (chunk: Buffer) => {
    if ((buffer?.length ?? 0) + chunk.length > MAX_BUFFER) {
      buffer = undefined;
      process.stderr.write("web-data-mcp: stdin message over 10 MiB dropped\n");
      return;
    }
    buffer = buffer ? Buffer.concat([buffer, chunk]) : chunk;
    for (let i = buffer.indexOf(10); i !== -1; i = buffer.indexOf(10)) {
      const line = buffer.toString("utf8", 0, i).replace(/\r$/, "");
      buffer = buffer.subarray(i + 1);
      onLine(line);
    }
  });

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await app?.close().catch(() => {});
    await onClose?.().catch(() => {});
    process.exit(code);
  };
  // A stray rejection must not end the session: log it and keep serving.
  process.on("unhandledRejection", (reason) => {
    const text = `unhandled rejection: ${reason instanceof Error ? reason.message : String(reason)}`;
    if (app) app.logger.error(text);
    else process.stderr.write(`web-data-mcp: ${text}\n`);
  });
  process.stdin.on("end", () => void stop(0));
  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));

  let resolveLoad!: () => void;
  const loadWanted = new Promise<void>((resolve) => {
    resolveLoad = resolve;
  });
  function startLoading() {
    resolveLoad();
  }
  // `tools/list` needs the full server: no reason to wait.
  if (!listed) startLoading();
  const idle = setTimeout(startLoading, IDLE_LOAD_MS);

  await loadWanted;
  clearTimeout(idle);
  const [{ createServer }, { deserializeMessage }, { listedTools }] = await Promise.all([
    import("./create-server.js"),
    import("@modelcontextprotocol/sdk/shared/stdio.js"),
    import("./listed-tools.js"),
  ]);
  const full = createServer({ config });
  app = full;
  const transport: Transport = {
    start: async () => {},
    send: (message: JSONRPCMessage) => {
      if ("id" in message && typeof message.id === "string" && dropped.delete(message.id)) {
        return Promise.resolve();
      }
      return write(message);
    },
    close: async () => {
      transport.onclose?.();
    },
  };
  transport.onclose = () => void stop(0);
  await full.server.connect(transport);
  const pass = (line: string) => {
    let message: JSONRPCMessage;
    try {
      // A plain request (the shape the SDK's strict schema accepts at the top level) skips that
      // schema's union parse: the SDK parses each request against its method's schema anyway.
      message = (asRequest(parseOrUndefined(line)) as JSONRPCMessage | undefined) ?? deserializeMessage(line);
    } catch (error) {
      transport.onerror?.(error as Error);
      return;
    }
    transport.onmessage?.(message);
  };
  const replay = queue;
  queue = [];
  deliver = pass;
  for (const line of replay) pass(line);
  full.logger.debug("stdio server ready", { tools: full.tools.size, sandbox: config.sandbox });
  if (listedAgents) {
    const answered = JSON.stringify(listedAgents);
    const now = await listedTools(full.server).then(JSON.stringify, () => undefined);
    if (now !== answered) {
      full.logger.debug("the tools listed at start differ from the loaded server's: tools/list_changed");
      full.server.sendToolListChanged();
    }
  }
  return true;
}

/** Params that carry nothing but `_meta` (as the SDK's empty request params may). */
const onlyMeta = (params: unknown) =>
  isObject(params) && Object.keys(params).every((k) => k === "_meta" && isObject(params._meta));
