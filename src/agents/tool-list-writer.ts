/**
 * Keeps the tool-list sidecar (tool-list-sidecar.ts) in step with the dedicated tools: shortly
 * after they change, and once after start (a sidecar of another version or other names is
 * replaced), it writes their entries exactly as this server lists them. Off the request path
 * (a timer), and only where the catalog keeps a disk cache.
 */
import { listedTools } from "../server/listed-tools.js";
import { VERSION } from "../server/version.js";
import type { ServerHost } from "../tools/tool.js";
import { catalogCacheLocation } from "./cache-files.js";
import type { AgentCatalog } from "./catalog.js";
import { SIDECAR_FORMAT, stateDigest, writeToolListSidecar } from "./tool-list-sidecar.js";
import { agentToolName } from "./tool-name.js";

/** Changes within this time are written once. */
const WRITE_DELAY_MS = 100;

/** The key each configured name's tool is registered from; undefined while one failed to register. */
export type ToolKeys = () => ReadonlyMap<string, string> | undefined;

export function toolListWriter(
  host: ServerHost,
  catalog: AgentCatalog,
  names: readonly string[],
  keys: ToolKeys,
): { schedule(): void } {
  // Names that share a tool name (cut at 64 characters) list one tool: not worth a sidecar.
  const distinct = new Set(names.map(agentToolName)).size === names.length;
  const location = distinct ? catalogCacheLocation(host.config) : undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let writing = Promise.resolve();
  host.onClose(() => {
    closed = true;
    clearTimeout(timer);
  });

  const write = async () => {
    const current = keys();
    if (closed || !location || !current || catalog.fetchedAt === undefined) return;
    const state = stateDigest(names.map((n) => current.get(n) ?? ""));
    // The keys and the list are read in the same turn: the list renders the tools registered now.
    const listed = await listedTools(host.server);
    const byName = new Map(listed.tools.map((t) => [t.name, t]));
    const tools = names.flatMap((n) => {
      const tool = byName.get(agentToolName(n));
      return tool ? [tool as unknown as Record<string, unknown>] : [];
    });
    // Every tool that should be listed is: else this state cannot be told apart, so none is written.
    if (tools.length !== names.filter((n) => current.get(n) !== "absent").length) return;
    const fetchedAt = catalog.fetchedAt;
    const sidecar = { format: SIDECAR_FORMAT, app: VERSION, names: [...names], fetchedAt, state, tools };
    if (await writeToolListSidecar(location, sidecar))
      host.log.debug("agent tool list saved for fast starts");
  };

  return {
    schedule() {
      if (closed || !location) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        writing = writing
          .then(write)
          .catch((e) => host.log.debug(`agent tool list not saved: ${e instanceof Error ? e.message : e}`));
      }, WRITE_DELAY_MS);
      timer.unref();
    },
  };
}
