/**
 * The server each framework drives, on a sandbox of the test file's own: the built CLI over stdio
 * (as a command the framework spawns itself) and over Streamable HTTP (`--http --port 0`, spawned
 * here). The sandbox runs in the test process, so a test sees every API request the server makes
 * (`sandbox.requests`) and can slow it down (`sandbox.configure`). Both servers log to a place the
 * test reads: the stdio one to a temp file (the framework owns its pipes), the HTTP one to memory.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { assertBuilt, CLI, startTestSandbox, TEST_KEY, until } from "../helpers/mcp.js";

export type TransportName = "stdio" | "http";
export const TRANSPORTS: readonly TransportName[] = ["stdio", "http"];

/** How a framework starts the stdio server: a command it spawns, whose stderr lands in `logFile`. */
export interface StdioCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface Servers {
  sandbox: Sandbox;
  stdio: StdioCommand;
  /** The Streamable HTTP endpoint, e.g. http://127.0.0.1:PORT/mcp. */
  httpUrl: string;
  /** Everything the server of that transport logged so far. */
  log(transport: TransportName): string;
}

function serverEnv(sandbox: Sandbox): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    WEBDATA_BASE_URL: sandbox.url,
    WEBDATA_API_KEY: TEST_KEY,
    WEBDATA_WAIT_MS: "60000",
  };
}

/** `sh -c 'exec node CLI 2>>LOG'`: the framework's pipes reach the server itself, stderr a file. */
function stdioCommand(sandbox: Sandbox, logFile: string): StdioCommand {
  return {
    command: "/bin/sh",
    args: ["-c", 'exec "$0" "$1" 2>>"$2"', process.execPath, CLI, logFile],
    env: serverEnv(sandbox),
  };
}

async function startHttp(sandbox: Sandbox): Promise<{ url: string; child: ChildProcess; log(): string }> {
  const child = spawn(process.execPath, [CLI, "--http", "--port", "0"], {
    env: serverEnv(sandbox),
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  child.stderr!.on("data", (c: Buffer) => {
    log += c.toString("utf8");
  });
  const exited = new Promise<never>((_, reject) =>
    child.once("exit", (code) => reject(new Error(`--http exited ${code}: ${log}`))),
  );
  const url = await Promise.race([
    until(
      () => /Streamable HTTP at (http:\/\/\S+\/mcp)/.exec(log)?.[1],
      (u) => u !== undefined,
    ),
    exited,
  ]);
  return { url: url!, child, log: () => log };
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await exited;
}

/** One sandbox, one HTTP server and the stdio command for a whole test file; all stopped after it. */
export function serversForFile(): Servers {
  const dir = mkdtempSync(join(tmpdir(), "web-data-clients-"));
  const logFile = join(dir, "stdio-server.log");
  let http: Awaited<ReturnType<typeof startHttp>> | undefined;
  const servers = {
    log: (transport: TransportName) => {
      if (transport === "http") return http?.log() ?? "";
      try {
        return readFileSync(logFile, "utf8");
      } catch {
        return "";
      }
    },
  } as Servers;
  beforeAll(async () => {
    assertBuilt();
    servers.sandbox = await startTestSandbox({ crawlPageMs: 30 });
    servers.stdio = stdioCommand(servers.sandbox, logFile);
    http = await startHttp(servers.sandbox);
    servers.httpUrl = http.url;
  }, 60_000);
  afterAll(async () => {
    await stop(http?.child);
    await servers.sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return servers;
}
