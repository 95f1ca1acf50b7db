/**
 * The process's environment, read here and nowhere else (`processEnvironment`), and the rules
 * that the bin's plain stdio start (src/bin.ts) needs before any configuration is loaded: blank
 * values, and where the caches live (the agent catalog, V8's code cache, the shell sandbox's
 * state), which `loadConfig` (src/config.ts) reads the same way.
 */
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The process's environment: each of the CLI's entries takes it from this function once and
 * passes it down (to `loadConfig`, the shell sandbox's child, the tools listing).
 */
export function processEnvironment(): NodeJS.ProcessEnv {
  return process.env;
}

/**
 * Blank values are unset. So is an unexpanded MCP Bundle placeholder such as
 * `${user_config.agent_tools}`: some hosts pass an optional field left empty through verbatim.
 */
export const blankToUndefined = (v: string | undefined) =>
  v === undefined || v.trim() === "" || /^\$\{user_config\.[\w-]+\}$/.test(v.trim()) ? undefined : v.trim();

/** `~/.cache/web-data-mcp` (under `XDG_CACHE_HOME` when set), else the temp dir. */
export function defaultCacheDir(xdgCacheHome?: string): string {
  if (xdgCacheHome) return join(xdgCacheHome, "web-data-mcp");
  let home = "";
  try {
    home = homedir();
  } catch {
    home = "";
  }
  return home ? join(home, ".cache", "web-data-mcp") : join(tmpdir(), "web-data-mcp");
}

/** `--cache-dir`, else `WEBDATA_CACHE_DIR`, else the default. */
export function cacheDirOf(env: NodeJS.ProcessEnv, flag?: string): string {
  return (
    blankToUndefined(flag ?? env.WEBDATA_CACHE_DIR) ?? defaultCacheDir(blankToUndefined(env.XDG_CACHE_HOME))
  );
}
