/**
 * `web-data-mcp --http`: starts the Streamable HTTP server from the CLI's flags and the
 * environment, prints the URL on stderr, and drains on SIGTERM/SIGINT (open calls finish within
 * the drain bound, then sessions close and the process exits 0; a second signal exits at once).
 */
import type { Config } from "../../config.js";
import { startTelemetry } from "../../telemetry/index.js";
import { DEFAULT_HTTP_PORT, type HttpServer, startHttpServer } from "../http.js";
import { registryToolNames } from "../tool-names.js";
import { SERVER_NAME, VERSION } from "../version.js";
import { isLoopbackHost } from "./auth/guard.js";
import { readOAuthSettings } from "./auth/oauth/settings.js";

export interface HttpFlags {
  host?: string;
  port?: number;
  /** Overrides WEBDATA_HTTP_TOKEN. */
  token?: string;
  /** Comma lists; override WEBDATA_ALLOWED_HOSTS / WEBDATA_ALLOWED_ORIGINS. */
  allowedHosts?: string;
  allowedOrigins?: string;
  /** Serve Prometheus `/metrics` (also WEBDATA_METRICS=1). */
  metrics?: boolean;
  /** Serve `/metrics` on this port instead, without authorization (implies `metrics`). */
  metricsPort?: number;
}

const list = (raw: string | undefined) =>
  (raw ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

type HttpSettings = NonNullable<Config["http"]>;
type Write = (line: string) => void;

/** Starts the server (and telemetry, when asked for) from the flags and the environment. */
async function start(config: Config, settings: HttpSettings, flags: HttpFlags, write: Write) {
  const token = flags.token?.trim() || config.httpToken;
  const oauth = readOAuthSettings(settings.oauth, { httpToken: token, publicUrl: config.publicUrl });
  // Loads OpenTelemetry only when OTEL_* exporters or metrics are asked for.
  const telemetry = await startTelemetry({
    settings: config.telemetry,
    prometheus: flags.metrics || flags.metricsPort !== undefined || !!config.telemetry?.prometheus,
    service: { name: SERVER_NAME, version: VERSION },
    toolNames: registryToolNames,
  });
  return startHttpServer({
    oauth,
    telemetry,
    metricsPort: flags.metricsPort,
    config,
    host: flags.host ?? "127.0.0.1",
    port: flags.port ?? DEFAULT_HTTP_PORT,
    token,
    allowedHosts: flags.allowedHosts === undefined ? settings.allowedHosts : list(flags.allowedHosts),
    allowedOrigins: flags.allowedOrigins === undefined ? settings.allowedOrigins : list(flags.allowedOrigins),
    idleTimeoutMs: settings.idleTimeoutMs,
    redisUrl: settings.redisUrl,
    fairShare: settings.perCaller,
    maxResumesPerPrincipal: settings.perCaller.maxResumes,
    drainMs: settings.drainMs,
    log: write,
  });
}

/** The lines that say what started and what is on. */
function announce(http: HttpServer, settings: HttpSettings, flags: HttpFlags, write: Write): void {
  write(`MCP over Streamable HTTP at ${http.url} (health: ${http.url.replace(/\/mcp$/, "/healthz")})`);
  const allowedHosts = flags.allowedHosts === undefined ? settings.allowedHosts : list(flags.allowedHosts);
  if (!isLoopbackHost(flags.host ?? "127.0.0.1") && allowedHosts.length === 0) {
    write("note: only loopback Host headers are allowed; add the names clients use with --allowed-hosts");
  }
  if (http.callbacks) write("webhook completion on: async tasks call back to WEBDATA_PUBLIC_URL");
  if (settings.redisUrl) write("fleet mode: sessions, streams, tasks and the rate limit shared in Redis");
  if (http.metricsUrl) write(`Prometheus metrics at ${http.metricsUrl}`);
  if (http.oauthResource) write(`OAuth on: tokens from ${settings.oauth.issuer} for ${http.oauthResource}`);
}

/** SIGTERM/SIGINT drain, then `stop`, then exit 0; a second signal exits at once. */
function drainOnSignals(http: HttpServer, drainMs: number, stop: () => Promise<void>, write: Write): void {
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals > 1) {
      write(`${signal} again: exiting without draining`);
      process.exit(1);
    }
    write(`${signal}: draining (up to ${drainMs / 1000} s for open calls)`);
    http
      .shutdown(drainMs)
      .then(stop)
      .then(
        () => process.exit(0),
        (error: unknown) => {
          write(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
          process.exit(1);
        },
      );
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
}

export async function runHttpCommand(
  config: Config,
  flags: HttpFlags,
  stop: () => Promise<void>,
): Promise<void> {
  const write = (line: string) => process.stderr.write(`web-data-mcp: ${line}\n`);
  const settings = config.http;
  if (!settings) throw new Error("runHttpCommand needs the configuration loaded with { http: true }");
  let http: HttpServer;
  try {
    http = await start(config, settings, flags, write);
  } catch (error) {
    await stop();
    throw error;
  }
  announce(http, settings, flags, write);
  drainOnSignals(http, settings.drainMs, stop, write);
}
