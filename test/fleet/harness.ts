/**
 * Real parts for the fleet tests: `redis-server` and `nginx` (Debian packages; `.ci/run` installs
 * them) started on free loopback ports with their own config in a temp dir, and N replicas of the
 * built CLI (`node dist/cli.js --http`) sharing state through that Redis behind that nginx
 * (plain round-robin, no affinity). Everything is stopped by `stop()`.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, connect as tcpConnect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI } from "../http/child.js";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts connections on `port` (or rejects when `alive()` turns false). */
async function untilListening(port: number, alive: () => boolean, what: string): Promise<void> {
  for (;;) {
    if (!alive()) throw new Error(`${what} exited before listening`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = tcpConnect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 25));
  }
}

function which(binary: string, fallbacks: string[]): string {
  for (const candidate of fallbacks) if (existsSync(candidate)) return candidate;
  try {
    return execFileSync("which", [binary], { encoding: "utf8" }).trim();
  } catch {
    throw new Error(`${binary} is not installed: apt-get install redis-server nginx-light (see README)`);
  }
}

interface Proc {
  child: ChildProcess;
  exited: Promise<unknown>;
  alive(): boolean;
  stderr(): string;
}

function start(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Proc {
  const child = spawn(command, args, { env, stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  let done = false;
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (c: string) => {
    err += c;
  });
  const exited = new Promise((resolve) => child.once("exit", resolve)).finally(() => {
    done = true;
  });
  return { child, exited, alive: () => !done, stderr: () => err };
}

async function stopProc(p: Proc | undefined, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (!p?.alive()) return;
  p.child.kill(signal);
  await p.exited;
}

export interface Replica extends Proc {
  /** Direct `http://127.0.0.1:PORT/mcp` (the tests go through nginx). */
  url: string;
  port: number;
}

export interface Fleet {
  dir: string;
  redisUrl: string;
  /** The load balancer's `/mcp`. */
  url: string;
  replicas: Replica[];
  stop(): Promise<void>;
}

export async function startFleet(options: { replicas: number; env: Record<string, string> }): Promise<Fleet> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  const dir = mkdtempSync(join(tmpdir(), "webdata-fleet-"));
  const procs: Proc[] = [];
  const replicas: Replica[] = [];
  let nginx: Proc | undefined;
  const stop = async () => {
    await stopProc(nginx, "SIGQUIT");
    await Promise.all(replicas.map((r) => stopProc(r, "SIGKILL")));
    await Promise.all(procs.map((p) => stopProc(p)));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const redisPort = await freePort();
    const redis = start(which("redis-server", ["/usr/bin/redis-server"]), [
      "--port",
      String(redisPort),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      dir,
    ]);
    procs.push(redis);
    await untilListening(redisPort, redis.alive, "redis-server");
    const redisUrl = `redis://127.0.0.1:${redisPort}`;
    const lbPort = await freePort();
    const lb = `127.0.0.1:${lbPort}`;
    const clean: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("WEBDATA_")) clean[k] = v;
    for (let i = 0; i < options.replicas; i++) {
      const port = await freePort();
      const p = start(process.execPath, [CLI, "--http", "--port", String(port), "--allowed-hosts", lb], {
        ...clean,
        WEBDATA_REDIS_URL: redisUrl,
        WEBDATA_PUBLIC_URL: `http://${lb}`,
        WEBDATA_CACHE_DIR: join(dir, `cache-${i}`),
        ...options.env,
      });
      replicas.push({ ...p, port, url: `http://127.0.0.1:${port}/mcp` });
    }
    await Promise.all(replicas.map((r) => untilListening(r.port, r.alive, `replica :${r.port}`)));
    const upstreams = replicas.map((r) => `    server 127.0.0.1:${r.port} max_fails=1 fail_timeout=30s;`);
    const conf = join(dir, "nginx.conf");
    writeFileSync(
      conf,
      `${process.getuid?.() === 0 ? "user root;\n" : ""}worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream mcp {
${upstreams.join("\n")}
    keepalive 64;
  }
  server {
    listen ${lb};
    client_max_body_size 5m;
    client_body_buffer_size 5m;
    location / {
      proxy_pass http://mcp;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_read_timeout 300s;
      proxy_next_upstream error timeout;
    }
  }
}
`,
    );
    nginx = start(which("nginx", ["/usr/sbin/nginx"]), [
      "-p",
      dir,
      "-c",
      conf,
      "-e",
      join(dir, "nginx-error.log"),
    ]);
    await untilListening(lbPort, nginx.alive, "nginx");
    return { dir, redisUrl, url: `http://${lb}/mcp`, replicas, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

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
