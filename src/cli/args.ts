/**
 * The command line: the flags, the help text, and parsing with messages of our own (one line,
 * the nearest flag for an unknown one).
 */
import { createRequire } from "node:module";
import type { parseArgs } from "node:util";
import { nearest } from "../suggest.js";

export const HELP = `web-data-mcp — MCP server for the Web Data Service API

Usage:
  web-data-mcp [--sandbox] [options]          stdio MCP server (default)
  web-data-mcp --http [--host H] [--port P]   Streamable HTTP at /mcp (host default 127.0.0.1)
  web-data-mcp sandbox [--port P] [--key K] [--allow-callbacks] [--dialect spec|live]   the sandbox API alone
  web-data-mcp sandbox --stop                 stop the shell sandbox that call --sandbox keeps
  web-data-mcp tools [--sandbox]              list the tools (no key needed)
  web-data-mcp call TOOL [JSON] [--sandbox] [--json]   one tool call; prints the result
  web-data-mcp call TOOL --help               the tool's arguments and examples

Options (each overrides the environment variable of the same meaning):
  --sandbox              run against the built-in sandbox; no key needed
  --base-url URL         WEBDATA_BASE_URL
  --legacy-base-url URL  WEBDATA_LEGACY_BASE_URL
  --toolsets LIST        WEBDATA_TOOLSETS (comma list or all; default search,extract,templates,agents,crawl,health,tasks,jobs)
  --agent-tools LIST     WEBDATA_AGENT_TOOLS
  --wait-ms N            WEBDATA_WAIT_MS (default 50000)
  --max-rps N            WEBDATA_MAX_RPS (default 83)
  --cache-dir DIR        WEBDATA_CACHE_DIR
  --allowed-hosts LIST   --http, sandbox: extra Host values (WEBDATA_ALLOWED_HOSTS; default loopback)
  --allowed-origins LIST --http: extra Origins (WEBDATA_ALLOWED_ORIGINS)
  --public-url URL       --http: WEBDATA_PUBLIC_URL, base of webhook callbacks
  --metrics              --http: Prometheus /metrics beside /mcp, same authorization (WEBDATA_METRICS=1)
  --metrics-port P       --http: /metrics on its own port instead, without authorization
  --allow-callbacks      sandbox: send webhook callbacks (to loopback addresses only)
  --key K                sandbox: accept only this bearer key (required beyond loopback)
  --dialect D            sandbox: "spec" (default) or "live" (the live service's response shapes)
  --json                 call: also print the structured result as JSON
  -h, --help             this help
  -v, --version          the version
Secrets come from the environment only: WEBDATA_API_KEY (required unless --sandbox),
WEBDATA_LEGACY_AUTH, WEBDATA_HTTP_TOKEN (required for --http beyond loopback, unless
WEBDATA_OAUTH_ISSUER makes it an OAuth resource server). OTEL_EXPORTER_OTLP_ENDPOINT turns on telemetry.`;

export const OPTIONS = {
  sandbox: { type: "boolean" },
  http: { type: "boolean" },
  host: { type: "string" },
  port: { type: "string" },
  key: { type: "string" },
  stop: { type: "boolean" },
  "base-url": { type: "string" },
  "legacy-base-url": { type: "string" },
  toolsets: { type: "string" },
  "agent-tools": { type: "string" },
  "wait-ms": { type: "string" },
  "max-rps": { type: "string" },
  "cache-dir": { type: "string" },
  "public-url": { type: "string" },
  "allowed-hosts": { type: "string" },
  "allowed-origins": { type: "string" },
  metrics: { type: "boolean" },
  "metrics-port": { type: "string" },
  "allow-callbacks": { type: "boolean" },
  dialect: { type: "string" },
  "exit-when-idle": { type: "string" },
  "state-file": { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

type Parsed = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
export type Values = Parsed["values"];

/** A mistake on the command line: one line on stderr, exit 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** Flags a user may type (internal ones of the shell sandbox are left out of suggestions). */
const PUBLIC_FLAGS = Object.entries(OPTIONS)
  .filter(([name]) => name !== "exit-when-idle" && name !== "state-file")
  .map(([name]) => `--${name}`);

const TOKEN_GONE =
  "--token is not accepted: a flag shows in the process list. Put the token in WEBDATA_HTTP_TOKEN instead";

/** What `parseArgs` makes of no arguments. */
export const NO_ARGUMENTS: Parsed = { values: {}, positionals: [] };

export function parseCommandLine(args: readonly string[]): Parsed {
  // No arguments is how MCP clients start the stdio server: nothing to parse, and node:util (its
  // parser, and the MIME tables util loads with it) stays out of that start.
  if (args.length === 0) return NO_ARGUMENTS;
  const { parseArgs } = createRequire(import.meta.url)("node:util") as typeof import("node:util");
  const token = args.find((a) => a === "--token" || a.startsWith("--token="));
  if (token) throw new UsageError(TOKEN_GONE);
  try {
    return parseArgs({ args: [...args], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(usageMessage(error as Error & { code?: string }));
  }
}

function usageMessage(error: Error & { code?: string }): string {
  const quoted = /'(-[^'\s]*)/.exec(error.message)?.[1] ?? "";
  const flag = quoted.replace(/=.*$/, "");
  if (error.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const near = flag.startsWith("--") ? nearest(flag, PUBLIC_FLAGS) : undefined;
    const hint = near ? `; did you mean ${near}?` : "";
    return `unknown flag ${flag || "(empty)"}${hint} (see --help)`;
  }
  if (error.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    const name = flag.replace(/^(--[\w-]+).*/, "$1");
    const option = OPTIONS[name.slice(2) as keyof typeof OPTIONS];
    return option?.type === "boolean"
      ? `${name} takes no value (see --help)`
      : `${name} needs a value, e.g. ${name} VALUE (see --help)`;
  }
  return `${error.message.split("\n")[0].replace(/'/g, "")} (see --help)`;
}

export function parsePort(raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new UsageError(`--port must be 0..65535, got ${JSON.stringify(raw)}`);
  return n;
}
