import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";
import { assertBuilt, CLI } from "../helpers/mcp.js";

const base = { WEBDATA_API_KEY: "secret-key-value-123", WEBDATA_BASE_URL: "https://api.example.com/prefix/" };

describe("loadConfig", () => {
  it("reads the environment with the documented defaults", () => {
    const c = loadConfig(base);
    expect(c).toMatchObject({
      baseUrl: "https://api.example.com/prefix",
      waitMs: 50_000,
      maxRps: 83,
      agentTools: [],
    });
    expect(c.toolsets).not.toContain("legacy");
  });

  it("treats an unexpanded bundle placeholder as unset", () => {
    const c = loadConfig({
      ...base,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the literal placeholder is the input under test
      WEBDATA_AGENT_TOOLS: "${user_config.agent_tools}",
      WEBDATA_WAIT_MS: " ",
    });
    expect(c.agentTools).toEqual([]);
    expect(c.waitMs).toBe(50_000);
  });

  it("lets flags win over the environment", () => {
    const c = loadConfig(
      { ...base, WEBDATA_WAIT_MS: "1000", WEBDATA_TOOLSETS: "search" },
      { waitMs: "2500", toolsets: "crawl" },
    );
    expect(c.waitMs).toBe(2500);
    expect(c.toolsets).toEqual(["crawl"]);
  });

  it.each([
    [{ WEBDATA_BASE_URL: "https://h" }, /WEBDATA_API_KEY is not set/],
    [{ WEBDATA_API_KEY: "k" }, /WEBDATA_BASE_URL is not set/],
    [{ ...base, WEBDATA_BASE_URL: "ftp://h" }, /WEBDATA_BASE_URL must be an http\(s\) URL/],
    [{ ...base, WEBDATA_WAIT_MS: "soon" }, /WEBDATA_WAIT_MS must be a whole number >= 0, got "soon"/],
    [{ ...base, WEBDATA_MAX_RPS: "-3" }, /WEBDATA_MAX_RPS must be a number/],
    [{ ...base, WEBDATA_TOOLSETS: "search,bogus" }, /unknown toolset "bogus"; valid: all, search, extract/],
    [{ ...base, WEBDATA_TOOLSETS: "legacy" }, /needs WEBDATA_LEGACY_AUTH/],
    [{ ...base, WEBDATA_LEGACY_AUTH: "nocolon" }, /user:password/],
    [{ ...base, WEBDATA_HTTP_ALLOW_KEY_HEADER: "yes" }, /WEBDATA_HTTP_ALLOW_KEY_HEADER must be 1 .* or 0/],
  ])("rejects %o", (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it("reads the process settings the other layers use: cache dir, catalog refresh, proxy, telemetry", () => {
    const c = loadConfig({
      ...base,
      XDG_CACHE_HOME: "/xdg",
      WEBDATA_CATALOG_REFRESH_MS: "10",
      HTTPS_PROXY: "http://upper:1",
      https_proxy: "http://lower:2",
      NO_PROXY: "127.0.0.1",
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
      OTEL_METRICS_EXPORTER: "none",
      OTEL_SERVICE_NAME: "mine",
      WEBDATA_METRICS: "yes",
    });
    expect(c.cacheDir).toBe("/xdg/web-data-mcp");
    expect(c.catalogRefreshMs).toBe(50);
    expect(c.proxy).toEqual({ httpProxy: "", httpsProxy: "http://lower:2", noProxy: "127.0.0.1" });
    expect(c.telemetry).toEqual({
      otlp: { traces: true, metrics: false },
      prometheus: true,
      serviceName: "mine",
    });
    expect(c.http).toBeUndefined();
    const plain = loadConfig({ ...base, NO_PROXY: "x", WEBDATA_CACHE_DIR: "/mine" });
    expect(plain.proxy).toBeUndefined();
    expect(plain.cacheDir).toBe("/mine");
    expect(plain.catalogRefreshMs).toBeUndefined();
  });

  it("reads the HTTP transport's settings with --http only, and refuses bad ones", () => {
    const env = {
      ...base,
      WEBDATA_ALLOWED_HOSTS: "a.example, b.example",
      WEBDATA_HTTP_IDLE_MS: "9000",
      WEBDATA_REDIS_URL: "redis://127.0.0.1:6379",
      WEBDATA_OAUTH_ISSUER: "https://login.example.com",
    };
    expect(loadConfig(env, { http: true }).http).toEqual({
      allowedHosts: ["a.example", "b.example"],
      allowedOrigins: [],
      drainMs: 10_000,
      idleTimeoutMs: 9000,
      redisUrl: "redis://127.0.0.1:6379",
      perCaller: {},
      oauth: { issuer: "https://login.example.com" },
    });
    expect(() => loadConfig({ ...env, WEBDATA_REDIS_URL: "127.0.0.1:6379" }, { http: true })).toThrow(
      /WEBDATA_REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/,
    );
    expect(() => loadConfig({ ...env, WEBDATA_HTTP_DRAIN_MS: "soon" }, { http: true })).toThrow(ConfigError);
    expect(loadConfig({ ...env, WEBDATA_REDIS_URL: "bad" }).http).toBeUndefined();
  });

  it("reads the per-caller caps of the HTTP server (issue 30), each a whole number", () => {
    const env = { WEBDATA_API_KEY: "k", WEBDATA_BASE_URL: "http://127.0.0.1:1" };
    expect(loadConfig(env, { http: true }).http?.perCaller).toEqual({});
    const set = loadConfig(
      {
        ...env,
        WEBDATA_HTTP_MAX_CALLS_PER_CALLER: "32",
        WEBDATA_HTTP_MAX_LONG_CALLS_PER_CALLER: "2",
        WEBDATA_HTTP_MAX_QUEUED_PER_CALLER: "0",
        WEBDATA_HTTP_MAX_TASKS_PER_CALLER: "50",
        WEBDATA_HTTP_MAX_RESUMES_PER_CALLER: "4",
      },
      { http: true },
    ).http?.perCaller;
    expect(set).toEqual({ maxCalls: 32, maxRunning: 2, maxQueued: 0, maxTasks: 50, maxResumes: 4 });
    expect(() => loadConfig({ ...env, WEBDATA_HTTP_MAX_CALLS_PER_CALLER: "0" }, { http: true })).toThrow(
      /WEBDATA_HTTP_MAX_CALLS_PER_CALLER must be a whole number >= 1/,
    );
    expect(() => loadConfig({ ...env, WEBDATA_HTTP_MAX_TASKS_PER_CALLER: "many" }, { http: true })).toThrow(
      ConfigError,
    );
  });

  it("needs neither key nor base URL in sandbox mode", () => {
    expect(loadConfig({}, { sandbox: true })).toMatchObject({
      sandbox: true,
      apiKey: "",
      legacyAuth: "demo:demo",
    });
  });

  it("keyless (`tools` without a key): no key, no base URL needed, and no sandbox defaults; with a key the base URL still is", () => {
    const config = loadConfig({}, { keyless: true });
    expect(config.apiKey).toBe("");
    expect(config.sandbox).toBe(false);
    expect(config.legacyAuth).toBeUndefined();
    expect(() => loadConfig({ WEBDATA_API_KEY: "k" }, { keyless: true })).toThrow(
      /WEBDATA_BASE_URL is not set/,
    );
    expect(() => loadConfig({})).toThrow(/WEBDATA_API_KEY is not set/);
  });

  it("never puts the key in a message", () => {
    try {
      loadConfig({ ...base, WEBDATA_WAIT_MS: "x" });
    } catch (e) {
      expect(String(e)).not.toContain("secret-key");
    }
  });
});

describe("cli(config errors)", () => {
  const run = (env: Record<string, string>, args: string[] = []) => {
    assertBuilt();
    return spawnSync(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? "", ...env },
      encoding: "utf8",
      input: "",
    });
  };

  it.each([
    ["missing key", { WEBDATA_BASE_URL: "http://127.0.0.1:9" }, [], /WEBDATA_API_KEY/],
    ["bad number", { ...base, WEBDATA_WAIT_MS: "-1" }, [], /WEBDATA_WAIT_MS/],
    ["unknown toolset", base, ["--toolsets", "nope"], /unknown toolset "nope"/],
    ["unknown flag", base, ["--frobnicate"], /frobnicate/],
    ["unknown command", base, ["frob"], /unknown command "frob"/],
  ])("%s: one stderr line, exit code 2, empty stdout", (_name, env, args, message) => {
    const r = run(env as Record<string, string>, args as string[]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(message as RegExp);
    expect(r.stderr).not.toContain("secret-key");
  });

  it("prints help and version on stdout", () => {
    expect(run({}, ["--help"]).stdout).toContain("web-data-mcp call TOOL");
    expect(run({}, ["--version"]).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
