#!/usr/bin/env node
/**
 * `web-data-mcp`: argument parsing and dispatch only. Everything heavy is imported lazily so the
 * stdio server starts fast; only this file writes to stdout (and in stdio mode only the MCP
 * transport does).
 */
import { parseArgs } from "node:util";

const HELP = `web-data-mcp — MCP server for the Web Data Service API

Usage:
  web-data-mcp [--sandbox] [options]          stdio MCP server (default)
  web-data-mcp --http [--host H] [--port P]   Streamable HTTP at /mcp (host default 127.0.0.1)
  web-data-mcp sandbox [--port P] [--key K] [--allow-callbacks]   the sandbox API alone
  web-data-mcp tools [--sandbox]              list the tools
  web-data-mcp call TOOL [JSON] [--sandbox] [--json]   one tool call; prints the result

Options (each overrides the environment variable of the same meaning):
  --sandbox              run against an in-process sandbox; no key needed
  --base-url URL         WEBDATA_BASE_URL
  --legacy-base-url URL  WEBDATA_LEGACY_BASE_URL
  --toolsets LIST        WEBDATA_TOOLSETS (comma list; default all but legacy)
  --agent-tools LIST     WEBDATA_AGENT_TOOLS
  --wait-ms N            WEBDATA_WAIT_MS (default 50000)
  --max-rps N            WEBDATA_MAX_RPS (default 83)
  --cache-dir DIR        WEBDATA_CACHE_DIR
  --token T              --http: WEBDATA_HTTP_TOKEN (required when --host is not loopback)
  --allowed-hosts LIST   --http: extra Host values (WEBDATA_ALLOWED_HOSTS; default loopback)
  --allowed-origins LIST --http: extra Origins (WEBDATA_ALLOWED_ORIGINS)
  --public-url URL       --http: WEBDATA_PUBLIC_URL, base of webhook callbacks
  --metrics              --http: Prometheus /metrics beside /mcp, same authorization (WEBDATA_METRICS=1)
  --metrics-port P       --http: /metrics on its own port instead, without authorization
  --allow-callbacks      sandbox: send webhook callbacks (to loopback addresses only)
  --key K                sandbox: accept only this bearer key (required beyond loopback)
  --json                 call: also print the structured result as JSON
  -h, --help             this help
  -v, --version          the version
Environment: WEBDATA_API_KEY (required unless --sandbox), WEBDATA_LEGACY_AUTH, WEBDATA_HTTP_TOKEN,
WEBDATA_PUBLIC_URL.`;

/**
 * A fresh key for the in-process sandbox. Its letters never occur in hex ids, so redaction of
 * key fragments cannot touch task ids, and no five of them in a row spell a word.
 */
function demoKey(): string {
  const alphabet = "ghjkmnpqrstvwxzGHJKMNPQRSTVWXZ";
  let key = "";
  for (let i = 0; i < 24; i++) key += alphabet[Math.floor(Math.random() * alphabet.length)];
  return key;
}

const OPTIONS = {
  sandbox: { type: "boolean" },
  http: { type: "boolean" },
  host: { type: "string" },
  port: { type: "string" },
  key: { type: "string" },
  "base-url": { type: "string" },
  "legacy-base-url": { type: "string" },
  toolsets: { type: "string" },
  "agent-tools": { type: "string" },
  "wait-ms": { type: "string" },
  "max-rps": { type: "string" },
  "cache-dir": { type: "string" },
  "public-url": { type: "string" },
  token: { type: "string" },
  "allowed-hosts": { type: "string" },
  "allowed-origins": { type: "string" },
  metrics: { type: "boolean" },
  "metrics-port": { type: "string" },
  json: { type: "boolean" },
  "allow-callbacks": { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>["values"];

class UsageError extends Error {}

function fail(message: string, code = 2): never {
  process.stderr.write(`web-data-mcp: ${message}\n`);
  process.exit(code);
}

function parsePort(raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new UsageError(`--port must be 0..65535, got ${JSON.stringify(raw)}`);
  return n;
}

/** Loads the config (and starts the in-process sandbox for --sandbox). */
async function resolveConfig(values: Values) {
  const { loadConfig } = await import("./config.js");
  const config = loadConfig(process.env, {
    sandbox: values.sandbox,
    baseUrl: values["base-url"],
    legacyBaseUrl: values["legacy-base-url"],
    toolsets: values.toolsets,
    agentTools: values["agent-tools"],
    waitMs: values["wait-ms"],
    maxRps: values["max-rps"],
    cacheDir: values["cache-dir"],
    publicUrl: values["public-url"],
  });
  if (!config.sandbox) return { config, stop: async () => {} };
  const { startSandbox } = await import("./sandbox/index.js");
  const sandbox = await startSandbox({
    legacyAuth: config.legacyAuth,
    allowCallbacks: values["allow-callbacks"],
  });
  return {
    config: {
      ...config,
      baseUrl: sandbox.url,
      legacyBaseUrl: sandbox.legacyUrl,
      apiKey: config.apiKey || demoKey(),
    },
    stop: () => sandbox.close(),
  };
}

async function main(): Promise<void> {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    fail(`${(error as Error).message} (see --help)`);
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;

  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  if (values.version) {
    const { VERSION } = await import("./server/version.js");
    process.stdout.write(`${VERSION}\n`);
    return;
  }

  if (command === "sandbox") {
    const { runSandboxCommand } = await import("./sandbox/index.js");
    const sandbox = await runSandboxCommand({
      port: parsePort(values.port, 0),
      key: values.key,
      host: values.host,
      allowCallbacks: values["allow-callbacks"],
      allowedHosts: values["allowed-hosts"]?.split(","),
    });
    process.stdout.write(`${sandbox.url}\n`);
    const stop = () => void sandbox.close().then(() => process.exit(0));
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    return;
  }

  if (command !== undefined && command !== "tools" && command !== "call") {
    throw new UsageError(`unknown command ${JSON.stringify(command)} (see --help)`);
  }
  if (command === "call" && rest.length === 0)
    throw new UsageError("call needs a tool name: call TOOL [JSON]");
  let args: Record<string, unknown> = {};
  if (command === "call" && rest[1] !== undefined) {
    try {
      args = JSON.parse(rest[1]);
    } catch {
      throw new UsageError(
        'call: the arguments must be one JSON object, e.g. \'{"url":"https://example.com"}\'',
      );
    }
    if (typeof args !== "object" || args === null || Array.isArray(args)) {
      throw new UsageError("call: the arguments must be a JSON object");
    }
  }

  const { config, stop } = await resolveConfig(values);

  if (command === "tools") {
    const { listToolsText } = await import("./server/one-shot.js");
    const text = await listToolsText(config).finally(stop);
    process.stdout.write(`${text}\n`);
    return;
  }
  if (command === "call") {
    const { callToolOnce } = await import("./server/one-shot.js");
    const result = await callToolOnce(config, rest[0], args).finally(stop);
    for (const item of result.content) {
      if (item.type === "text") process.stdout.write(`${item.text}\n`);
      else if (item.type === "image")
        process.stdout.write(`[image ${item.mimeType}, ${item.data.length} base64 chars]\n`);
    }
    if (values.json && result.structuredContent) {
      process.stdout.write(`${JSON.stringify(result.structuredContent, null, 2)}\n`);
    }
    process.exitCode = result.isError ? 1 : 0;
    return;
  }
  if (values.http) {
    await runHttp(config, values, stop);
    return;
  }
  const { runStdio } = await import("./server/stdio.js");
  await runStdio(config, stop);
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
      token: values.token,
      allowedHosts: values["allowed-hosts"],
      allowedOrigins: values["allowed-origins"],
      metrics: values.metrics,
      metricsPort: values["metrics-port"] === undefined ? undefined : parsePort(values["metrics-port"], 0),
    },
    stop,
  );
}

main().catch(async (error: unknown) => {
  const { ConfigError } = await import("./config.js").catch(() => ({ ConfigError: undefined }));
  const oneLine = ["UsageError", "ConfigError", "SandboxOptionsError"];
  if (
    error instanceof UsageError ||
    (ConfigError && error instanceof ConfigError) ||
    oneLine.includes((error as Error)?.name)
  )
    fail((error as Error).message);
  fail(`fatal: ${error instanceof Error ? error.message : String(error)}`, 1);
});
