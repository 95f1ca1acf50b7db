/** Types of scripts/undici-plugin.mjs (for the tests that import it). */
import type { Plugin } from "esbuild";

/** undici as our sources use it: its dispatchers, node:http and node:assert loaded on need. */
export declare const leanUndici: Plugin;
