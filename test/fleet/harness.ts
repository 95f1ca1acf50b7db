/**
 * The fleet tests' parts: the fleet itself (redis-server, nginx, replicas) from
 * scripts/fleet.mjs, shared with the bench, and the sandbox in a process of its own.
 */
import { spawn } from "node:child_process";

export { type Fleet, freePort, type Replica, startFleet } from "../../scripts/fleet.mjs";

export interface RemoteSandbox {
  url: string;
  siteUrl: string;
  configure(options: Record<string, number>): Promise<void>;
  requests(): Promise<Array<{ method: string; path: string; status: number; at: number }>>;
  close(): Promise<void>;
}

/** The sandbox in a child process (see sandbox-child.mjs), driven over stdin and `/_sandbox/*`. */
export async function startRemoteSandbox(key: string): Promise<RemoteSandbox> {
  const script = new URL("./sandbox-child.mjs", import.meta.url).pathname;
  const child = spawn(process.execPath, [script, key], { stdio: ["pipe", "pipe", "inherit"] });
  child.stdout!.setEncoding("utf8");
  const lines: string[] = [];
  const waiting: Array<(line: string) => void> = [];
  let buffer = "";
  child.stdout!.on("data", (chunk: string) => {
    buffer += chunk;
    for (let at = buffer.indexOf("\n"); at >= 0; at = buffer.indexOf("\n")) {
      const line = buffer.slice(0, at);
      buffer = buffer.slice(at + 1);
      const next = waiting.shift();
      if (next) next(line);
      else lines.push(line);
    }
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      const ready = lines.shift();
      if (ready !== undefined) return resolve(ready);
      waiting.push(resolve);
      void exited.then(() => reject(new Error("the sandbox process exited")));
    });
  const { url, siteUrl } = JSON.parse(await nextLine()) as { url: string; siteUrl: string };
  return {
    url,
    siteUrl,
    async configure(options) {
      child.stdin!.write(`${JSON.stringify({ configure: options })}\n`);
      await nextLine();
    },
    async requests() {
      const res = await fetch(`${url}/_sandbox/requests`);
      return ((await res.json()) as { requests: [] }).requests;
    },
    async close() {
      child.stdin!.end();
      await exited;
    },
  };
}
