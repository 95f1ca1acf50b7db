// Real parts of a fleet, for the fleet tests (test/fleet/) and the fleet bench (bench/fleet.mjs):
// `redis-server` and `nginx` (Debian packages; .ci/run installs them) started on free loopback ports
// with their own config in a temp dir, and N replicas of the built CLI (`node dist/cli.cjs --http`)
// sharing state through that Redis behind that nginx (plain round-robin, no affinity). `stop()`
// stops everything it started and removes the temp dir. Types: fleet.d.mts.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, connect as tcpConnect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The built CLI the replicas run. */
export const CLI = fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));
export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
async function untilListening(port, alive, what) {
  for (;;) {
    if (!alive()) throw new Error(`${what} exited before listening`);
    const ok = await new Promise((resolve) => {
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
function which(binary, fallbacks) {
  for (const candidate of fallbacks) if (existsSync(candidate)) return candidate;
  try {
    return execFileSync("which", [binary], { encoding: "utf8" }).trim();
  } catch {
    throw new Error(`${binary} is not installed: apt-get install redis-server nginx-light (see README)`);
  }
}
function start(command, args, env = process.env) {
  const child = spawn(command, args, { env, stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  let done = false;
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (c) => {
    err += c;
  });
  const exited = new Promise((resolve) => child.once("exit", resolve)).finally(() => {
    done = true;
  });
  return { child, exited, alive: () => !done, stderr: () => err };
}
async function stopProc(p, signal = "SIGTERM") {
  if (!p?.alive()) return;
  p.child.kill(signal);
  await p.exited;
}
/** A redis-server on a free loopback port, without persistence, its files in `dir`. */
export async function startRedisServer(dir) {
  const port = await freePort();
  const proc = start(which("redis-server", ["/usr/bin/redis-server"]), [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--save",
    "",
    "--appendonly",
    "no",
    "--dir",
    dir,
  ]);
  const stop = () => stopProc(proc);
  await untilListening(port, proc.alive, "redis-server").catch(async (error) => {
    await stop();
    throw error;
  });
  return { url: `redis://127.0.0.1:${port}`, stop };
}
export async function startFleet(options) {
  const cli = options.cli ?? CLI;
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run npm run build first`);
  const dir = mkdtempSync(join(tmpdir(), "webdata-fleet-"));
  const replicas = [];
  let nginx;
  let redis;
  const stop = async () => {
    await stopProc(nginx, "SIGQUIT");
    await Promise.all(replicas.map((r) => stopProc(r, "SIGKILL")));
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    redis = await startRedisServer(dir);
    const redisUrl = redis.url;
    const lbPort = await freePort();
    const lb = `127.0.0.1:${lbPort}`;
    const clean = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("WEBDATA_")) clean[k] = v;
    const ports = [];
    for (let i = 0; i < options.replicas; i++) ports.push(await freePort());
    for (let i = 0; i < options.replicas; i++) {
      const port = ports[i];
      const p = start(process.execPath, [cli, "--http", "--port", String(port), "--allowed-hosts", lb], {
        ...clean,
        WEBDATA_REDIS_URL: redisUrl,
        WEBDATA_PUBLIC_URL: `http://${lb}`,
        WEBDATA_CACHE_DIR: join(dir, `cache-${i}`),
        ...options.env,
        ...options.replicaEnv?.(i, ports),
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
    # Below Node's 5 s keep-alive: nginx drops an idle connection before the replica closes it,
    # or a POST sent on a closing one fails as 502 (nginx does not retry a POST elsewhere).
    keepalive_timeout 4s;
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
