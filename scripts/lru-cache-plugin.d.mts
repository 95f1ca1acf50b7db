/** Types of scripts/lru-cache-plugin.mjs (for the tests that import it). */
import type { Plugin } from "esbuild";

/** lru-cache with a clock that reads `performance` on its first use. */
export declare const lazyLruClock: Plugin;
