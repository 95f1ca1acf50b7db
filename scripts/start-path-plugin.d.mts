/** Types of scripts/start-path-plugin.mjs (for the tests that import it). */
import type { Plugin } from "esbuild";

/** For dist/stdio.cjs: the SDK's schemas built on first use. */
export declare const startPath: Plugin;
/** For every other bundle: the SDK's schemas built as it loads them, those no chunk names left out. */
export declare const leanSdk: Plugin;
/** The SDK's types.js (`source`, read from `path`) with each schema built on first use; throws when it no longer fits. */
export declare function deferredSchemas(source: string, path: string): string;
/** Throws when the SDK module (`source`, read from `path`) uses a types.js schema as it loads. */
export declare function readsNoSchemaAtLoad(source: string, path: string): void;
/** The SDK's types.js with its JSON-RPC message guards checking their schema's required members first; throws when one no longer fits. */
export declare function guardsRejectEarly(source: string, path: string): string;
