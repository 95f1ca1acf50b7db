/**
 * The tool-list sidecar of the agent catalog cache (`agents-<id>.tools.json` beside
 * `agents-<id>.json`): the dedicated `agent_<name>` tools exactly as the full server lists them
 * (compacted, as sent in `tools/list`), so the stdio fast front can answer the first `tools/list`
 * with WEBDATA_AGENT_TOOLS set before zod and the SDK are loaded. Node built-ins only.
 *
 * Those entries follow from the app version and, per configured name, the catalog state the
 * dedicated tools are keyed by (`agentToolKey`: the agent's details, "absent" or "permissive").
 * The sidecar records the version, the names and a digest of those keys; the front recomputes the
 * keys from the catalog cache file — as the full server will load it — and uses the entries only
 * when all of it matches. No key (nor any part of one) is stored: the entries come from the
 * agents' details, the file name from the catalog cache's hash.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import {
  CACHE_VERSION,
  type CacheLocation,
  toolListFile,
  withinAge,
  writeFileAtomic,
} from "./cache-files.js";

export const SIDECAR_FORMAT = 1 as const;

type Json = Record<string, unknown>;

export interface ToolListSidecar {
  format: typeof SIDECAR_FORMAT;
  /** The app version that rendered the entries. */
  app: string;
  /** WEBDATA_AGENT_TOOLS, in order. */
  names: string[];
  /** The catalog's `fetchedAt` when the entries were rendered (ms epoch). */
  fetchedAt: number;
  /** `stateDigest` of the names' keys: the catalog state the entries were rendered from. */
  state: string;
  /** The listed `agent_<name>` entries, in the order of `names` (an absent agent has none). */
  tools: Json[];
}

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** What a dedicated tool is rendered from: the agent's details, or that it is absent / not known yet. */
export function agentToolKey(detail: unknown, listed: boolean | undefined): string {
  if (listed === false) return "absent";
  return detail ? JSON.stringify(detail) : "permissive";
}

export const stateDigest = (keys: readonly string[]) =>
  createHash("sha256").update(JSON.stringify(keys)).digest("hex");

/**
 * What the front may list for the configured agent tools: the sidecar's entries ("cached"), or
 * "cold" when the full server will start with no usable catalog cache (every tool permissive).
 * `undefined` when in doubt: the full server answers `tools/list` then.
 */
export type FrontAgentTools = { kind: "cached"; tools: Json[] } | { kind: "cold" } | undefined;

export function agentToolsForFront(
  location: CacheLocation | undefined,
  baseUrl: string,
  names: readonly string[],
  version: string,
  now = Date.now(),
): FrontAgentTools {
  if (!location) return { kind: "cold" };
  const catalog = readJson(location.file);
  // Each of these makes the full server ignore the cache (readCache), so it starts cold.
  if (
    !isObject(catalog) ||
    catalog.version !== CACHE_VERSION ||
    catalog.baseUrl !== baseUrl ||
    typeof catalog.fetchedAt !== "number" ||
    !withinAge(catalog.fetchedAt, location.maxAgeMs, now) ||
    !Array.isArray(catalog.agents) ||
    !isObject(catalog.details)
  ) {
    return { kind: "cold" };
  }
  const sidecar = readJson(toolListFile(location.file));
  if (
    !isObject(sidecar) ||
    sidecar.format !== SIDECAR_FORMAT ||
    sidecar.app !== version ||
    JSON.stringify(sidecar.names) !== JSON.stringify(names) ||
    !Array.isArray(sidecar.tools) ||
    !sidecar.tools.every(isObject)
  ) {
    return undefined;
  }
  const { agents, details } = catalog as { agents: unknown[]; details: Json };
  const keys = names.map((name) =>
    agentToolKey(
      Object.hasOwn(details, name) ? details[name] : undefined,
      agents.some((a) => isObject(a) && a.name === name),
    ),
  );
  return stateDigest(keys) === sidecar.state ? { kind: "cached", tools: sidecar.tools } : undefined;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * Writes the sidecar unless the file already says the same but for `fetchedAt` (a refresh that
 * changed nothing rewrites no file); true when it wrote.
 */
export async function writeToolListSidecar(
  location: CacheLocation,
  sidecar: ToolListSidecar,
): Promise<boolean> {
  const file = toolListFile(location.file);
  const text = JSON.stringify(sidecar);
  const current = await readFile(file, "utf8")
    .then(JSON.parse, () => undefined)
    .catch(() => undefined);
  if (isObject(current) && JSON.stringify({ ...current, fetchedAt: sidecar.fetchedAt }) === text)
    return false;
  await writeFileAtomic(file, location.dir, text);
  return true;
}
