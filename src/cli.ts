#!/usr/bin/env node
/**
 * `web-data-mcp`: argument parsing and dispatch only (flags in cli/args.ts, the `call` and `tools`
 * commands in cli/call.ts, the shell sandbox in cli/shell-sandbox.ts). Bundled as
 * dist/cli-main.cjs, which the bin (src/bin.ts, dist/cli.cjs) loads when given any argument: with
 * none, the bin starts the stdio server itself. Everything heavy is imported lazily so the stdio
 * server starts fast; in stdio mode only the MCP transport writes to stdout.
 */
import { existsSync } from "node:fs";
import nodeModule from "node:module";
import { fileURLToPath } from "node:url";
import { raiseWasmTieringBudget } from "./api/wasm-tiering.js";
import { HELP, parseCommandLine, parsePort, UsageError, type Values } from "./cli/args.js";
import { exitOnError, note, noteConfig, noteWaitingOnTerminal } from "./cli/exit.js";
import { loadStdioBundle } from "./cli/stdio-bundle.js";
import { loadConfig, processEnvironment } from "./config.js";

// Node 22.1 and later keep the compiled code of the chunks loaded from here on disk (in the OS temp
// folder, or NODE_COMPILE_CACHE), so later starts skip most of the compiling; Node 20 has no such cache.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const COMMANDS = ["sandbox", "tools", "call"];

/**
 * Loads the config, with the sandbox it runs against for --sandbox: in process, or for `call`
 * the shell sandbox that outlives the call (so the next call can use what this one printed).
 */
async function resolveConfig(
  values: Values,
  env: NodeJS.ProcessEnv,
  options: { shared?: boolean; keyless?: boolean } = {},
) {
  const config = loadConfig(env, {
    keyless: options.keyless,
    sandbox: values.sandbox,
    baseUrl: values["base-url"],
    legacyBaseUrl: values["legacy-base-url"],
    toolsets: values.toolsets,
    agentTools: values["agent-tools"],
    waitMs: values["wait-ms"],
    maxRps: values["max-rps"],
    cacheDir: values["cache-dir"],
    publicUrl: values["public-url"],
    http: values.http,
  });
  noteConfig(config);
  if (!config.sandbox) return { config, stop: async () => {} };
  if (options.shared) {
    const { shellSandbox } = await import("./cli/shell-sandbox.js");
    const shell = await shellSandbox(config.cacheDir, fileURLToPath(import.meta.url), env);
    if (shell.started) {
      note(
        `started the shell sandbox at ${shell.url}; later call --sandbox runs use it (and what this one printed) until 15 minutes pass without a call, or: web-data-mcp sandbox --stop`,
      );
    }
    const sandboxed = {
      ...config,
      baseUrl: shell.url,
      legacyBaseUrl: shell.legacyUrl,
      apiKey: shell.key,
      legacyAuth: "demo:demo",
    };
    return { config: sandboxed, stop: async () => {} };
  }
  const { startSandbox } = await import("./sandbox/index.js");
  const { sandboxKey } = await import("./cli/sandbox-key.js");
  const sandbox = await startSandbox({
    legacyAuth: config.legacyAuth,
    allowCallbacks: values["allow-callbacks"],
  });
  return {
    config: {
      ...config,
      baseUrl: sandbox.url,
      legacyBaseUrl: sandbox.legacyUrl,
      apiKey: config.apiKey || sandboxKey(),
    },
    stop: () => sandbox.close(),
  };
}

async function sandboxCommand(values: Values, env: NodeJS.ProcessEnv): Promise<void> {
  const config = loadConfig(env, { sandbox: true, cacheDir: values["cache-dir"] });
  if (values.stop) {
    const { stopShellSandbox } = await import("./cli/shell-sandbox.js");
    note(await stopShellSandbox(config.cacheDir));
    return;
  }
  const { runSandboxCommand } = await import("./sandbox/index.js");
  const key = values.key ?? config.sandboxKey;
  const dialect = values.dialect ?? "spec";
  if (dialect !== "spec" && dialect !== "live") {
    throw new UsageError(`--dialect must be "spec" or "live" (got ${JSON.stringify(dialect)})`);
  }
  const sandbox = await runSandboxCommand({
    port: parsePort(values.port, 0),
    key,
    host: values.host,
    allowCallbacks: values["allow-callbacks"],
    allowedHosts: values["allowed-hosts"]?.split(","),
    dialect,
  });
  // The sandbox command's one stdout line: its URL, for scripts (it is not an MCP server).
  process.stdout.write(`${sandbox.url}\n`);
  let release = async () => {};
  if (values["state-file"] && key) {
    const { keepShellSandbox } = await import("./cli/shell-sandbox.js");
    const idle = Number(values["exit-when-idle"] ?? 900);
    release = await keepShellSandbox(sandbox, key, values["state-file"], idle > 0 ? idle : 900);
  }
  const stop = () => void release().then(() => sandbox.close().then(() => process.exit(0)));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

async function main(env: NodeJS.ProcessEnv): Promise<void> {
  const { values, positionals } = parseCommandLine(process.argv.slice(2));
  const [command, ...rest] = positionals;
  if (await answeredAlone(values, command, rest)) return;
  // V8 refuses a code cache made under other flags: each command sets its flags at one fixed
  // point, before it compiles anything with a cache. The stdio server does so after its start
  // path (stdioServer), which answers the handshake without loading node:v8.
  if (command !== undefined || values.http) raiseWasmTieringBudget();
  if (command === "sandbox") return sandboxCommand(values, env);
  if (command === "tools") return toolsCommand(values, env);
  if (command === "call") return callCommand(values, env, rest);
  return serveCommand(values, env);
}

/**
 * `--help` (of the CLI or of one tool), `--version` and an unknown command: answered without any
 * configuration. True when answered.
 */
async function answeredAlone(values: Values, command: string | undefined, rest: string[]): Promise<boolean> {
  if (command === "call" && values.help && rest[0] !== undefined) {
    const { toolHelp } = await import("./cli/call.js");
    process.stdout.write(`${toolHelp(rest[0])}\n`);
    return true;
  }
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return true;
  }
  if (values.version) {
    const { VERSION } = await import("./server/version.js");
    process.stdout.write(`${VERSION}\n`);
    return true;
  }
  if (command !== undefined && !COMMANDS.includes(command)) {
    const { nearest } = await import("./suggest.js");
    throw new UsageError(
      `unknown command ${JSON.stringify(command)}; did you mean ${nearest(command, COMMANDS)}? (see --help)`,
    );
  }
  return false;
}

/** `tools`: the registry's list without a key, else the server's own (agent tools included). */
async function toolsCommand(values: Values, env: NodeJS.ProcessEnv): Promise<void> {
  const { config, stop } = await resolveConfig(values, env, { keyless: !values.sandbox });
  if (!config.apiKey) {
    const { registryToolsText } = await import("./cli/call.js");
    process.stdout.write(`${registryToolsText(config)}\n`);
    if (config.agentTools.length > 0) note("agent_<name> tools are listed once WEBDATA_API_KEY is set");
    return;
  }
  const { listToolsText } = await import("./server/one-shot.js");
  const text = await listToolsText(config).finally(stop);
  process.stdout.write(`${text}\n`);
}

/** `call TOOL [JSON]`: one tool call from the shell; the exit code says whether it failed. */
async function callCommand(values: Values, env: NodeJS.ProcessEnv, rest: string[]): Promise<void> {
  if (rest.length === 0)
    throw new UsageError("call needs a tool name: call TOOL [JSON] (list them: web-data-mcp tools)");
  const { checkToolName, parseCallArgs, runCall } = await import("./cli/call.js");
  checkToolName(rest[0]);
  const args = parseCallArgs(rest[0], rest[1]);
  const { config, stop } = await resolveConfig(values, env, { shared: true });
  process.exitCode = await runCall(config, rest[0], args, values.json ?? false).finally(stop);
}

/** No command: the MCP server, over stdio or (`--http`) Streamable HTTP. */
async function serveCommand(values: Values, env: NodeJS.ProcessEnv): Promise<void> {
  const { config, stop } = await resolveConfig(values, env);
  if (values.http) {
    await runHttp(config, values, stop);
    return;
  }
  noteWaitingOnTerminal(config.sandbox);
  const { runStdio } = await stdioServer(config.cacheDir);
  await runStdio(config, stop);
}

/**
 * The stdio server: dist/stdio.cjs compiled with V8's code cache (./cli/stdio-bundle.ts), or the
 * ES module when that file is not there (running from sources).
 */
async function stdioServer(cacheDir: string | undefined): Promise<typeof import("./server/stdio.js")> {
  const file = fileURLToPath(new URL("./stdio.cjs", import.meta.url));
  if (!existsSync(file)) {
    raiseWasmTieringBudget();
    return import("./server/stdio.js");
  }
  return loadStdioBundle(file, cacheDir);
}

/** `--http`: flags, signals and draining live in src/server/http/main.ts. */
async function runHttp(
  config: Awaited<ReturnType<typeof resolveConfig>>["config"],
  values: Values,
  stop: () => Promise<void>,
) {
  const { runHttpCommand } = await import("./server/http/main.js");
  await runHttpCommand(
    config,
    {
      host: values.host,
      port: parsePort(values.port, 8787),
      allowedHosts: values["allowed-hosts"],
      allowedOrigins: values["allowed-origins"],
      metrics: values.metrics,
      metricsPort: values["metrics-port"] === undefined ? undefined : parsePort(values["metrics-port"], 0),
    },
    stop,
  );
}

main(processEnvironment()).catch(exitOnError);
