/**
 * `node dist/cli.js` driven by raw JSON-RPC lines, so messages can be pipelined before the SDK
 * loads: what the stdio fast front answers is seen exactly as written (test/server/fast-start.test.ts,
 * test/agents/fast-start-agents.e2e.test.ts).
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { CLI, until } from "../helpers/mcp.js";

export type Msg = Record<string, any>;

export class RawServer {
  readonly received: Msg[] = [];
  stderr = "";
  private buffer = "";
  private nextId = 1;
  private readonly exited: Promise<void>;

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      this.buffer += chunk;
      for (let i = this.buffer.indexOf("\n"); i !== -1; i = this.buffer.indexOf("\n")) {
        const line = this.buffer.slice(0, i);
        this.buffer = this.buffer.slice(i + 1);
        this.received.push(JSON.parse(line)); // a non-JSON line fails the test here
      }
    });
    child.stderr.on("data", (c: Buffer) => {
      this.stderr += c.toString("utf8");
    });
    this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
  }

  request(method: string, params?: unknown): Msg {
    return { jsonrpc: "2.0", id: this.nextId++, method, ...(params === undefined ? {} : { params }) };
  }

  /** Writes all messages in one chunk (so they arrive together, before the SDK is loaded). */
  send(...messages: Msg[]): void {
    this.child.stdin.write(messages.map((m) => `${JSON.stringify(m)}\n`).join(""));
  }

  async response(id: number | string): Promise<Msg> {
    return until(
      () => this.received.find((m) => m.id === id && ("result" in m || "error" in m)),
      (m) => m !== undefined,
    ) as Promise<Msg>;
  }

  /** Where the answer to `id` is among everything received (-1 before it arrived). */
  position(id: number | string): number {
    return this.received.findIndex((m) => m.id === id && ("result" in m || "error" in m));
  }

  notifications(method: string): Msg[] {
    return this.received.filter((m) => m.method === method);
  }

  async close(): Promise<void> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 5000);
    await this.exited;
    clearTimeout(timer);
  }
}

/** Spawns the built server with only PATH and `env` in its environment. */
export function spawnRaw(env: Record<string, string>): RawServer {
  const child = spawn(process.execPath, [CLI], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  return new RawServer(child);
}

export const initParams = (protocolVersion: string) => ({
  protocolVersion,
  capabilities: {},
  clientInfo: { name: "fast-start-test", version: "0.0.0" },
});
export const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
