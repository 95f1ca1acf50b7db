/**
 * `web-data-mcp --http`: starts the Streamable HTTP server from the CLI's flags and the
 * environment, prints the URL on stderr, and drains on SIGTERM/SIGINT (open calls finish within
 * the drain bound, then sessions close and the process exits 0; a second signal exits at once).
 */
import type { Config } from "../../config.js";
import { metricsFlag, startTelemetry } from "../../telemetry/index.js";
import { DEFAULT_HTTP_PORT, startHttpServer } from "../http.js";
import { SERVER_NAME, VERSION } from "../version.js";
import { isLoopbackHost } from "./guard.js";
import { readOAuthSettings } from "./oauth/settings.js";

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

/** Environment read by the HTTP transport only (the rest is in config.ts). */
export const HTTP_ENV = {
  allowedHosts: "WEBDATA_ALLOWED_HOSTS",
  allowedOrigins: "WEBDATA_ALLOWED_ORIGINS",
  drainMs: "WEBDATA_HTTP_DRAIN_MS",
  idleMs: "WEBDATA_HTTP_IDLE_MS",
  redisUrl: "WEBDATA_REDIS_URL",
} as const;

const list = (raw: string | undefined) =>
  (raw ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

function redisUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env[HTTP_ENV.redisUrl]?.trim();
  if (!raw) return undefined;
  if (!/^rediss?:\/\//i.test(raw)) {
    throw new Error(`${HTTP_ENV.redisUrl} must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379`);
  }
  return raw;
}

function ms(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number of milliseconds`);
  return n;
}

export async function runHttpCommand(
  config: Config,
  flags: HttpFlags,
  stop: () => Promise<void>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const host = flags.host ?? "127.0.0.1";
  const write = (line: string) => process.stderr.write(`web-data-mcp: ${line}\n`);
  const drainMs = ms(env, HTTP_ENV.drainMs) ?? 10_000;
  const allowedHosts = list(flags.allowedHosts ?? env[HTTP_ENV.allowedHosts]);
  let http: Awaited<ReturnType<typeof startHttpServer>>;
  try {
    const token = flags.token?.trim() || config.httpToken;
    const oauth = readOAuthSettings(env, { httpToken: token, publicUrl: config.publicUrl });
    // Loads OpenTelemetry only when OTEL_* exporters or metrics are asked for.
    const telemetry = await startTelemetry({
      env,
      prometheus: flags.metrics || flags.metricsPort !== undefined || metricsFlag(env),
      service: { name: SERVER_NAME, version: VERSION },
    });
    http = await startHttpServer({
      oauth,
      telemetry,
      metricsPort: flags.metricsPort,
      config,
      host,
      port: flags.port ?? DEFAULT_HTTP_PORT,
      token,
      allowedHosts,
      allowedOrigins: list(flags.allowedOrigins ?? env[HTTP_ENV.allowedOrigins]),
      idleTimeoutMs: ms(env, HTTP_ENV.idleMs),
      redisUrl: redisUrl(env),
      drainMs,
      log: write,
    });
  } catch (error) {
    await stop();
    throw error;
  }
  write(`MCP over Streamable HTTP at ${http.url} (health: ${http.url.replace(/\/mcp$/, "/healthz")})`);
  if (!isLoopbackHost(host) && allowedHosts.length === 0) {
    write("note: only loopback Host headers are allowed; add the names clients use with --allowed-hosts");
  }
  if (http.callbacks) write("webhook completion on: async tasks call back to WEBDATA_PUBLIC_URL");
  if (env[HTTP_ENV.redisUrl]?.trim())
    write("fleet mode: sessions, streams, tasks and the rate limit shared in Redis");
  if (http.metricsUrl) write(`Prometheus metrics at ${http.metricsUrl}`);
  if (http.oauthResource)
    write(`OAuth on: tokens from ${env.WEBDATA_OAUTH_ISSUER} for ${http.oauthResource}`);

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
