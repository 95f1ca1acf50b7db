/**
 * The stdio server's start path, bundled as dist/stdio.cjs (scripts/bundle.mjs) and compiled with
 * V8's code cache: `runStdio` for the CLI (src/cli.ts, any flags), and `serveStdioCommand`, the
 * whole command as MCP clients start it, with no argument: configuration from the environment,
 * then the server. The bin (src/bin.ts) runs that one without loading the rest of the CLI, so the
 * plain start compiles neither the flags' parser nor the other commands.
 */
import { loadConfig } from "../config.js";
import { runStdio } from "../server/stdio.js";
import { exitOnError, noteConfig, noteWaitingOnTerminal } from "./exit.js";

export { runStdio };

/** `web-data-mcp` with no argument: the stdio server, configured by the environment `env`. */
export function serveStdioCommand(env: NodeJS.ProcessEnv): void {
  try {
    const config = loadConfig(env);
    noteConfig(config);
    noteWaitingOnTerminal(config.sandbox);
    runStdio(config).catch(exitOnError);
  } catch (error) {
    exitOnError(error);
  }
}
