/**
 * Configuration from the environment (DESIGN.md's table) with CLI flags of the same meaning
 * winning. Every problem is a `ConfigError` whose message is one line fit for stderr; the key
 * is never part of a message.
 */
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_MAX_RPS, type GenerationSetting, type ProxySettings } from "./api/options.js";
import { DEFAULT_TOOLSETS, isToolset, TOOLSETS, type Toolset } from "./toolsets.js";

// The client's own option types (the client imports no configuration); kept importable from here.
export {
  type ApiGeneration,
  DEFAULT_MAX_RPS,
  type GenerationSetting,
  type ProxySettings,
} from "./api/options.js";

export interface Config {
  /** Bearer key; "" only in sandbox mode before the sandbox is up. */
  apiKey: string;
  /** `{base_url}` without a trailing slash (a path prefix is kept). */
  baseUrl: string;
  legacyBaseUrl?: string;
  /** Basic credential `user:pass` for the legacy endpoint. */
  legacyAuth?: string;
  toolsets: Toolset[];
  /**
   * `WEBDATA_TOOLSETS` named the toolsets (or `all`): each comes whole, its opt-in tools
   * (`generate_template`) included. Unset: the default set, which leaves those out.
   */
  toolsetsNamed?: boolean;
  /** `WEBDATA_READ_ONLY`: only tools that read (no account writes, no billable work beyond a read). */
  readOnly?: boolean;
  agentTools: string[];
  waitMs: number;
  maxRps: number;
  cacheDir?: string;
  httpToken?: string;
  /**
   * Whether HTTP callers may bring their own API key (`x-webdata-api-key`); unset: allowed
   * without OAuth, refused with it (`WEBDATA_HTTP_ALLOW_KEY_HEADER`).
   */
  httpAllowKeyHeader?: boolean;
  publicUrl?: string;
  sandbox: boolean;
  /** `WEBDATA_API_GENERATION`: which API generation the client speaks (src/api/generations.ts). */
  apiGeneration?: GenerationSetting;
  /** `WEBDATA_TASK_MAX_TTL_MS`: the longest TTL an MCP task gets (a longer request is clamped); default 24 h. */
  taskMaxTtlMs?: number;
  /** `WEBDATA_CATALOG_REFRESH_MS`: ms between background refreshes of the agent catalog (default 10 min). */
  catalogRefreshMs?: number;
  /** The proxy the environment names (`HTTP(S)_PROXY`, `NO_PROXY`), for the API client; absent: direct. */
  proxy?: ProxySettings;
  /** What telemetry the environment asks for (`OTEL_*`, `WEBDATA_METRICS`). */
  telemetry?: TelemetrySettings;
  /** `WEBDATA_SANDBOX_KEY`: the key `web-data-mcp sandbox` accepts when `--key` is not given. */
  sandboxKey?: string;
  /** `--http` only: the transport's own settings. */
  http?: HttpSettings;
  /** Start-up notes for stderr: what the configuration leaves out and why (e.g. the legacy tool). */
  notes?: string[];
}

export interface TelemetrySettings {
  /** Which OTLP signals the standard exporter variables ask for. */
  otlp: { traces: boolean; metrics: boolean };
  /** `WEBDATA_METRICS=1`: serve Prometheus `/metrics` in HTTP mode. */
  prometheus: boolean;
  /** `OTEL_SERVICE_NAME`. */
  serviceName?: string;
}

/** The OAuth variables as given; `readOAuthSettings` (src/server/http/auth/oauth) checks their combination. */
export interface OAuthVariables {
  issuer?: string;
  scopes?: string;
  introspectionUrl?: string;
  clientId?: string;
  clientSecret?: string;
  /** `WEBDATA_OAUTH_AUDIENCE`: audiences accepted besides the resource URL (space or comma list). */
  audience?: string;
  /** `WEBDATA_OAUTH_STRICT_JWT=1`: JWT access tokens must say `typ: at+jwt` (RFC 9068). */
  strictJwt?: boolean;
}

export interface HttpSettings {
  /** `WEBDATA_ALLOWED_HOSTS` / `WEBDATA_ALLOWED_ORIGINS` (the flags win). */
  allowedHosts: string[];
  allowedOrigins: string[];
  /** `WEBDATA_HTTP_DRAIN_MS` (default 10 s). */
  drainMs: number;
  /** `WEBDATA_HTTP_IDLE_MS`. */
  idleTimeoutMs?: number;
  /** `WEBDATA_REDIS_URL`. */
  redisUrl?: string;
  oauth: OAuthVariables;
  /** The per-caller caps (`WEBDATA_HTTP_MAX_*_PER_CALLER`); absent: the server's defaults. */
  perCaller: PerCallerLimits;
}

/** Caps per principal on one replica (tasks: in the fleet), each from its variable when set. */
export interface PerCallerLimits {
  /** `WEBDATA_HTTP_MAX_CALLS_PER_CALLER`: tool calls running at once (default 16). */
  maxCalls?: number;
  /** `WEBDATA_HTTP_MAX_LONG_CALLS_PER_CALLER`: long calls and MCP tasks running at once (default 4). */
  maxRunning?: number;
  /** `WEBDATA_HTTP_MAX_QUEUED_PER_CALLER`: calls waiting for a slot (default 100). */
  maxQueued?: number;
  /** `WEBDATA_HTTP_MAX_TASKS_PER_CALLER`: live MCP task records (default 500). */
  maxTasks?: number;
  /** `WEBDATA_HTTP_MAX_RESUMES_PER_CALLER`: resumed streams (`Last-Event-ID`) open at once (default 8). */
  maxResumes?: number;
}

const PER_CALLER_VARIABLES: Record<keyof PerCallerLimits, string> = {
  maxCalls: "WEBDATA_HTTP_MAX_CALLS_PER_CALLER",
  maxRunning: "WEBDATA_HTTP_MAX_LONG_CALLS_PER_CALLER",
  maxQueued: "WEBDATA_HTTP_MAX_QUEUED_PER_CALLER",
  maxTasks: "WEBDATA_HTTP_MAX_TASKS_PER_CALLER",
  maxResumes: "WEBDATA_HTTP_MAX_RESUMES_PER_CALLER",
};

function readPerCaller(env: NodeJS.ProcessEnv): PerCallerLimits {
  const limits: PerCallerLimits = {};
  for (const [field, name] of Object.entries(PER_CALLER_VARIABLES) as Array<
    [keyof PerCallerLimits, string]
  >) {
    const raw = blankToUndefined(env[name]);
    // At least 1: 0 would refuse every call; the queue may be 0 (refuse instead of queueing).
    if (raw !== undefined) limits[field] = parseNumber(name, raw, 0, true, field === "maxQueued" ? 0 : 1);
  }
  return limits;
}

/** CLI flags that override the environment (same meaning as the variables). */
export interface ConfigFlags {
  baseUrl?: string;
  legacyBaseUrl?: string;
  toolsets?: string;
  agentTools?: string;
  waitMs?: string;
  maxRps?: string;
  cacheDir?: string;
  publicUrl?: string;
  sandbox?: boolean;
  /** `tools` without a key: a missing key (and then base URL) is allowed, to list what the settings expose. */
  keyless?: boolean;
  /** `--http`: read the HTTP transport's settings too. */
  http?: boolean;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** A yes/no variable: 1/true/yes or 0/false/no (any case); unset or blank is no. */
function parseFlag(name: string, raw: string | undefined): boolean {
  const v = raw?.trim().toLowerCase();
  if (v === undefined || v === "") return false;
  if (["1", "true", "yes"].includes(v)) return true;
  if (["0", "false", "no"].includes(v)) return false;
  throw new ConfigError(`${name} must be 1 or 0 (true/false), not ${JSON.stringify(raw)}`);
}

/** `WEBDATA_API_GENERATION`: `auto` (default), `2` or `1` (also `v2`/`v1`). */
export function parseGeneration(raw: string | undefined): GenerationSetting {
  if (raw === undefined) return "auto";
  const v = raw.trim().toLowerCase();
  if (v === "auto") return "auto";
  if (v === "1" || v === "v1") return 1;
  if (v === "2" || v === "v2") return 2;
  throw new ConfigError(
    `WEBDATA_API_GENERATION must be auto (generation 2, falling back to 1 where a route is missing), 2 or 1, got ${JSON.stringify(raw)}`,
  );
}

export const DEFAULT_WAIT_MS = 50_000;

/**
 * Blank values are unset. So is an unexpanded MCP Bundle placeholder such as
 * `${user_config.agent_tools}`: some hosts pass an optional field left empty through verbatim.
 */
const blankToUndefined = (v: string | undefined) =>
  v === undefined || v.trim() === "" || /^\$\{user_config\.[\w-]+\}$/.test(v.trim()) ? undefined : v.trim();

/**
 * What `z.url({ protocol: /^https?$/ })` accepts, without loading zod at start-up: an explicit
 * `http://` or `https://` prefix, a parseable URL, an http(s) protocol.
 */
function isHttpUrl(value: string): boolean {
  const trimmed = value.trim();
  if (!/^https?:\/\//i.test(trimmed)) return false;
  try {
    return /^https?$/.test(new URL(trimmed).protocol.slice(0, -1));
  } catch {
    return false;
  }
}

function parseUrl(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!isHttpUrl(value))
    throw new ConfigError(`${name} must be an http(s) URL such as https://api.example.com`);
  return value.replace(/\/+$/, "");
}

function parseNumber(name: string, raw: string | undefined, fallback: number, integer: boolean, min: number) {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n)) || n < min) {
    const kind = integer ? "a whole number" : "a number";
    throw new ConfigError(`${name} must be ${kind} >= ${min}, got ${JSON.stringify(raw)}`);
  }
  return n;
}

function parseList(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  return [
    ...new Set(
      raw
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

const LEGACY_NO_URL =
  "WEBDATA_LEGACY_AUTH is set but WEBDATA_LEGACY_BASE_URL is not, so get_social_event is not offered; set WEBDATA_LEGACY_BASE_URL to the legacy endpoint's host";

/**
 * The toolsets asked for. `legacy` needs the Basic credential and the legacy host: asked for by
 * name without them is an error; implied (default or `all`) it is left out, with a note.
 */
function parseToolsets(
  raw: string | undefined,
  legacyAuth: string | undefined,
  legacyReachable: boolean,
  notes: string[],
): Toolset[] {
  const names = parseList(raw);
  if (names === undefined || names.length === 0) {
    if (legacyAuth && !legacyReachable) notes.push(LEGACY_NO_URL);
    return legacyAuth && legacyReachable ? [...DEFAULT_TOOLSETS, "legacy"] : [...DEFAULT_TOOLSETS];
  }
  const expanded = names.flatMap((n) => (n.toLowerCase() === "all" ? [...TOOLSETS] : [n.toLowerCase()]));
  const unknown = expanded.filter((n) => !isToolset(n));
  if (unknown.length > 0) {
    throw new ConfigError(
      `WEBDATA_TOOLSETS: unknown toolset ${unknown.map((u) => JSON.stringify(u)).join(", ")}; valid: all, ${TOOLSETS.join(", ")}`,
    );
  }
  const sets = [...new Set(expanded)] as Toolset[];
  if (sets.includes("legacy") && !legacyAuth) {
    if (names.some((n) => n.toLowerCase() === "legacy")) {
      throw new ConfigError("toolset legacy needs WEBDATA_LEGACY_AUTH (the Basic credential user:pass)");
    }
    return sets.filter((s) => s !== "legacy");
  }
  if (sets.includes("legacy") && !legacyReachable) {
    if (names.some((n) => n.toLowerCase() === "legacy")) {
      throw new ConfigError("toolset legacy needs WEBDATA_LEGACY_BASE_URL (the legacy endpoint's host)");
    }
    notes.push(LEGACY_NO_URL);
    return sets.filter((s) => s !== "legacy");
  }
  return sets;
}

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

/**
 * `--cache-dir`, else `WEBDATA_CACHE_DIR`, else the default: as `loadConfig` reads it, and as the
 * bin (src/bin.ts) reads it before the rest of the configuration loads (in dist/stdio.cjs), to find
 * the start path's code cache.
 */
export function cacheDirOf(env: NodeJS.ProcessEnv, flag?: string): string {
  return (
    blankToUndefined(flag ?? env.WEBDATA_CACHE_DIR) ?? defaultCacheDir(blankToUndefined(env.XDG_CACHE_HOME))
  );
}

function readProxy(env: NodeJS.ProcessEnv): ProxySettings | undefined {
  const first = (...names: string[]) => names.map((n) => env[n]?.trim()).find((v) => v) ?? "";
  const proxy = {
    httpProxy: first("http_proxy", "HTTP_PROXY"),
    httpsProxy: first("https_proxy", "HTTPS_PROXY"),
    noProxy: first("no_proxy", "NO_PROXY"),
  };
  return proxy.httpProxy || proxy.httpsProxy ? proxy : undefined;
}

function readTelemetry(env: NodeJS.ProcessEnv): TelemetrySettings {
  const set = (name: string) => !!env[name]?.trim();
  const off = env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true";
  const any = set("OTEL_EXPORTER_OTLP_ENDPOINT");
  return {
    otlp: {
      traces:
        !off &&
        (any || set("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")) &&
        env.OTEL_TRACES_EXPORTER?.trim() !== "none",
      metrics:
        !off &&
        (any || set("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT")) &&
        env.OTEL_METRICS_EXPORTER?.trim() !== "none",
    },
    prometheus: /^(1|true|yes|on)$/i.test(env.WEBDATA_METRICS?.trim() ?? ""),
    ...(set("OTEL_SERVICE_NAME") ? { serviceName: env.OTEL_SERVICE_NAME?.trim() } : {}),
  };
}

function readHttp(env: NodeJS.ProcessEnv): HttpSettings {
  const redisUrl = blankToUndefined(env.WEBDATA_REDIS_URL);
  if (redisUrl !== undefined && !/^rediss?:\/\//i.test(redisUrl)) {
    throw new ConfigError(
      "WEBDATA_REDIS_URL must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379",
    );
  }
  const idle = blankToUndefined(env.WEBDATA_HTTP_IDLE_MS);
  return {
    allowedHosts: parseList(env.WEBDATA_ALLOWED_HOSTS) ?? [],
    allowedOrigins: parseList(env.WEBDATA_ALLOWED_ORIGINS) ?? [],
    drainMs: parseNumber(
      "WEBDATA_HTTP_DRAIN_MS",
      blankToUndefined(env.WEBDATA_HTTP_DRAIN_MS),
      10_000,
      true,
      0,
    ),
    ...(idle !== undefined ? { idleTimeoutMs: parseNumber("WEBDATA_HTTP_IDLE_MS", idle, 0, true, 0) } : {}),
    ...(redisUrl !== undefined ? { redisUrl } : {}),
    perCaller: readPerCaller(env),
    oauth: {
      issuer: blankToUndefined(env.WEBDATA_OAUTH_ISSUER),
      scopes: blankToUndefined(env.WEBDATA_OAUTH_SCOPES),
      introspectionUrl: blankToUndefined(env.WEBDATA_OAUTH_INTROSPECTION_URL),
      clientId: blankToUndefined(env.WEBDATA_OAUTH_CLIENT_ID),
      clientSecret: blankToUndefined(env.WEBDATA_OAUTH_CLIENT_SECRET),
      audience: blankToUndefined(env.WEBDATA_OAUTH_AUDIENCE),
      ...(parseFlag("WEBDATA_OAUTH_STRICT_JWT", env.WEBDATA_OAUTH_STRICT_JWT) ? { strictJwt: true } : {}),
    },
  };
}

/**
 * The process's environment, read here and nowhere else: each of the CLI's entries (src/cli.ts,
 * src/bin.ts) takes it from this function once and passes it down (to `loadConfig`, the shell
 * sandbox's child, the tools listing).
 */
export function processEnvironment(): NodeJS.ProcessEnv {
  return process.env;
}

/**
 * Reads the configuration. In sandbox mode the key and base URL may be missing (the CLI fills
 * them in once the sandbox is listening).
 */
export function loadConfig(env: NodeJS.ProcessEnv = processEnvironment(), flags: ConfigFlags = {}): Config {
  const sandbox = flags.sandbox ?? false;
  const get: Read = (flag, name) => blankToUndefined(flag ?? env[name]);
  const { apiKey, baseUrl } = readService(env, flags, get);
  const legacyAuth = readLegacyAuth(env, sandbox);
  const agentTools = readAgentTools(get(flags.agentTools, "WEBDATA_AGENT_TOOLS"));
  const callers = readCallerAccess(env);
  const legacyBaseUrl = parseUrl(
    "WEBDATA_LEGACY_BASE_URL",
    get(flags.legacyBaseUrl, "WEBDATA_LEGACY_BASE_URL"),
  );
  const notes = baseUrlNotes(baseUrl);
  const toolsetsRaw = get(flags.toolsets, "WEBDATA_TOOLSETS");
  const toolsets = parseToolsets(toolsetsRaw, legacyAuth, sandbox || legacyBaseUrl !== undefined, notes);
  const proxy = readProxy(env);
  return {
    apiKey: apiKey ?? "",
    baseUrl: baseUrl ?? "",
    legacyBaseUrl,
    legacyAuth,
    toolsets,
    ...(parseList(toolsetsRaw)?.length ? { toolsetsNamed: true } : {}),
    ...(parseFlag("WEBDATA_READ_ONLY", env.WEBDATA_READ_ONLY) ? { readOnly: true } : {}),
    agentTools,
    ...readPacing(flags, get),
    cacheDir: cacheDirOf(env, flags.cacheDir),
    ...callers,
    publicUrl: parseUrl("WEBDATA_PUBLIC_URL", get(flags.publicUrl, "WEBDATA_PUBLIC_URL")),
    sandbox,
    apiGeneration: parseGeneration(blankToUndefined(env.WEBDATA_API_GENERATION)),
    ...(env.WEBDATA_TASK_MAX_TTL_MS?.trim()
      ? {
          taskMaxTtlMs: parseNumber("WEBDATA_TASK_MAX_TTL_MS", env.WEBDATA_TASK_MAX_TTL_MS, 0, true, 60_000),
        }
      : {}),
    ...catalogRefresh(env.WEBDATA_CATALOG_REFRESH_MS),
    ...(blankToUndefined(env.WEBDATA_SANDBOX_KEY)
      ? { sandboxKey: blankToUndefined(env.WEBDATA_SANDBOX_KEY) }
      : {}),
    ...(proxy ? { proxy } : {}),
    telemetry: readTelemetry(env),
    ...(flags.http ? { http: readHttp(env) } : {}),
    ...(notes.length > 0 ? { notes } : {}),
  };
}

/** A setting from its command-line flag, else from the environment (blank is unset). */
type Read = (flag: string | undefined, name: string) => string | undefined;

/** The service's key and host: both required, unless in sandbox mode or keyless without a key. */
function readService(env: NodeJS.ProcessEnv, flags: ConfigFlags, get: Read) {
  const apiKey = blankToUndefined(env.WEBDATA_API_KEY);
  const baseUrl = parseUrl("WEBDATA_BASE_URL", get(flags.baseUrl, "WEBDATA_BASE_URL"));
  if (!(flags.sandbox ?? false) && !(flags.keyless && !apiKey)) {
    if (!apiKey) {
      throw new ConfigError("WEBDATA_API_KEY is not set (get a key from the dashboard, or try --sandbox)");
    }
    if (!baseUrl) {
      throw new ConfigError("WEBDATA_BASE_URL is not set (the service host, e.g. https://api.example.com)");
    }
  }
  return { apiKey, baseUrl };
}

/** Generation 1's Basic credential, user:password (the sandbox's own by default in sandbox mode). */
function readLegacyAuth(env: NodeJS.ProcessEnv, sandbox: boolean): string | undefined {
  const legacyAuth = blankToUndefined(env.WEBDATA_LEGACY_AUTH) ?? (sandbox ? "demo:demo" : undefined);
  if (legacyAuth !== undefined && !legacyAuth.includes(":")) {
    throw new ConfigError("WEBDATA_LEGACY_AUTH must be the Basic credential in the form user:password");
  }
  return legacyAuth;
}

/** The agents given a dedicated tool each, by name. */
function readAgentTools(raw: string | undefined): string[] {
  const agentTools = parseList(raw) ?? [];
  const badAgent = agentTools.find((a) => !/^[A-Za-z0-9_.-]+$/.test(a));
  if (badAgent !== undefined) {
    throw new ConfigError(`WEBDATA_AGENT_TOOLS: ${JSON.stringify(badAgent)} is not an agent name`);
  }
  return agentTools;
}

/** Over HTTP: the static token, and whether callers may send their own key in a header. */
function readCallerAccess(env: NodeJS.ProcessEnv): Pick<Config, "httpToken" | "httpAllowKeyHeader"> {
  const httpToken = blankToUndefined(env.WEBDATA_HTTP_TOKEN);
  const keyHeader = blankToUndefined(env.WEBDATA_HTTP_ALLOW_KEY_HEADER);
  if (keyHeader !== undefined && keyHeader !== "0" && keyHeader !== "1") {
    throw new ConfigError(
      "WEBDATA_HTTP_ALLOW_KEY_HEADER must be 1 (callers may send x-webdata-api-key) or 0 (they may not)",
    );
  }
  return { httpToken, ...(keyHeader !== undefined ? { httpAllowKeyHeader: keyHeader === "1" } : {}) };
}

/** How long a tool waits for async work, and the client's request rate. */
function readPacing(flags: ConfigFlags, get: Read): Pick<Config, "waitMs" | "maxRps"> {
  return {
    waitMs: parseNumber("WEBDATA_WAIT_MS", get(flags.waitMs, "WEBDATA_WAIT_MS"), DEFAULT_WAIT_MS, true, 0),
    maxRps: parseNumber(
      "WEBDATA_MAX_RPS",
      get(flags.maxRps, "WEBDATA_MAX_RPS"),
      DEFAULT_MAX_RPS,
      false,
      0.01,
    ),
  };
}

/** A note when the host given ends in an API version the tools add themselves. */
function baseUrlNotes(baseUrl: string | undefined): string[] {
  const version = baseUrl === undefined ? null : /\/(v\d+)$/.exec(baseUrl);
  return version
    ? [
        `WEBDATA_BASE_URL ends in /${version[1]}, but the tools add /v1 and /v2 themselves; set it to the service host without the version`,
      ]
    : [];
}

/** Any positive number of ms, at least 50 (tests refresh fast); anything else keeps the default. */
function catalogRefresh(raw: string | undefined): { catalogRefreshMs?: number } {
  const n = Number(raw);
  return raw?.trim() && Number.isFinite(n) && n > 0 ? { catalogRefreshMs: Math.max(50, n) } : {};
}

/** The secrets a config holds, for redaction of anything printed or returned. */
export const configSecrets = (c: Config): string[] =>
  [c.apiKey, c.legacyAuth, c.httpToken].filter((s): s is string => !!s);
