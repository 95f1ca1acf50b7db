/**
 * The shell sandbox: what `call --sandbox` runs against, so that one call can use what the last
 * printed (search result URLs, task ids). The first such call starts `web-data-mcp sandbox` as a
 * detached process on a loopback port with a fresh key and records it in
 * `<cache dir>/shell-sandbox.json` (mode 0600); later calls reuse it while it answers. It exits
 * after 15 minutes without API requests, or on `web-data-mcp sandbox --stop`.
 * The state file is trusted only when this user owns it and nobody else can write it, its URLs
 * are loopback, and its pid runs our sandbox with that very state file (its command line): a
 * planted file can neither make `--stop` kill another process nor send a call elsewhere.
 */
import { execFile, spawn } from "node:child_process";
import { lstat, readFile, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeFileAtomic } from "../agents/cache-files.js";
import { defaultCacheDir } from "../config.js";
import { sandboxKey } from "./sandbox-key.js";

export const SHELL_SANDBOX_IDLE_S = 15 * 60;
const STATE_NAME = "shell-sandbox.json";

export interface ShellSandboxState {
  url: string;
  legacyUrl: string;
  /** The sandbox's own throwaway bearer key (never a real API key). */
  key: string;
  pid: number;
}

const SECRETS = ["WEBDATA_API_KEY", "WEBDATA_LEGACY_AUTH", "WEBDATA_HTTP_TOKEN"];
const withoutSecrets = (env: NodeJS.ProcessEnv) =>
  Object.fromEntries(Object.entries(env).filter(([k]) => !SECRETS.includes(k)));

export const stateFileIn = (cacheDir: string | undefined) => join(cacheDir ?? defaultCacheDir(), STATE_NAME);

async function readState(file: string): Promise<ShellSandboxState | undefined> {
  try {
    const s = JSON.parse(await readFile(file, "utf8")) as ShellSandboxState;
    return typeof s.url === "string" && typeof s.key === "string" && Number.isInteger(s.pid) ? s : undefined;
  } catch {
    return undefined;
  }
}

const LOOPBACK = new Set(["127.0.0.1", "[::1]", "localhost"]);

function isLoopbackUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === "http:" && LOOPBACK.has(url.hostname) && !url.username && !url.password;
  } catch {
    return false;
  }
}

/** The process's command line: /proc where there is one, else `ps`; undefined when unknown. */
async function commandLine(pid: number): Promise<string[] | undefined> {
  try {
    return (await readFile(`/proc/${pid}/cmdline`, "utf8")).split("\0").filter(Boolean);
  } catch {
    return new Promise((resolve) => {
      execFile("ps", ["-o", "command=", "-p", String(pid)], (error, stdout) =>
        resolve(error ? undefined : stdout.trim().split(/\s+/)),
      );
    });
  }
}

/** Why the state file cannot be trusted, or undefined when it can. */
async function distrust(file: string, state: ShellSandboxState): Promise<string | undefined> {
  const info = await lstat(file).catch(() => undefined);
  if (!info?.isFile()) return "it is not a regular file";
  if (process.getuid && info.uid !== process.getuid()) return "another user owns it";
  if ((info.mode & 0o022) !== 0) return "others can write it";
  if (!isLoopbackUrl(state.url) || (state.legacyUrl && !isLoopbackUrl(state.legacyUrl)))
    return "its URL is not a loopback address";
  const args = processAlive(state.pid) ? await commandLine(state.pid) : undefined;
  if (!args?.includes("sandbox") || args[args.indexOf("--state-file") + 1] !== file)
    return `pid ${state.pid} is not this shell sandbox`;
  return undefined;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * How long a live, trusted shell sandbox may take to answer before it is taken as hung and
 * replaced: generous, since a busy machine can hold a healthy one back for seconds (at 2 s, a
 * second `call --sandbox` at load 20 started a new sandbox beside a working one).
 */
const ANSWER_TIMEOUT_MS = 10_000;

async function answers(state: ShellSandboxState): Promise<boolean> {
  if (!processAlive(state.pid)) return false;
  try {
    const res = await fetch(`${state.url}/_sandbox/faults`, {
      signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
    });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

/** The running shell sandbox, started when there is none. `started` says which. */
export async function shellSandbox(
  cacheDir: string | undefined,
  cliPath: string,
  env: NodeJS.ProcessEnv,
): Promise<ShellSandboxState & { started: boolean }> {
  const file = stateFileIn(cacheDir);
  const known = await readState(file);
  if (known && !(await distrust(file, known)) && (await answers(known))) return { ...known, started: false };

  const key = sandboxKey("sbx_");
  const child = spawn(
    process.execPath,
    [
      cliPath,
      "sandbox",
      "--port",
      "0",
      "--exit-when-idle",
      String(SHELL_SANDBOX_IDLE_S),
      "--state-file",
      file,
    ],
    {
      detached: true,
      stdio: ["ignore", "ignore", "pipe"],
      // A process that lives on needs none of the caller's secrets, nor to hold its folder.
      cwd: tmpdir(),
      env: { ...withoutSecrets(env), WEBDATA_SANDBOX_KEY: key },
    },
  );
  let stderr = "";
  child.stderr?.on("data", (c: Buffer) => {
    stderr += c.toString("utf8");
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  try {
    for (;;) {
      const state = await readState(file);
      if (state && state.pid === child.pid) return { ...state, started: true };
      const code = await Promise.race([
        exited,
        new Promise<undefined>((r) => setTimeout(() => r(undefined), 25)),
      ]);
      if (code !== undefined) {
        throw new Error(`the shell sandbox did not start: ${stderr.trim() || `exit ${code}`}`);
      }
    }
  } finally {
    child.stderr?.destroy();
    child.unref();
  }
}

/** `sandbox --stop`: ends the shell sandbox, if one runs. Returns what happened, for stderr. */
export async function stopShellSandbox(cacheDir: string | undefined): Promise<string> {
  const file = stateFileIn(cacheDir);
  const state = await readState(file);
  if (!state || !processAlive(state.pid)) {
    await unlink(file).catch(() => {});
    return "no shell sandbox is running";
  }
  const why = await distrust(file, state);
  if (why) return `did not stop anything: ${file} is not a shell sandbox's state file we can trust (${why})`;
  process.kill(state.pid, "SIGTERM");
  return `stopped the shell sandbox at ${state.url} (pid ${state.pid})`;
}

/**
 * In the sandbox process: records it in the state file, and exits once no API request came for
 * `idleS` seconds. Removes the state file on the way out if it is still this process's.
 */
export async function keepShellSandbox(
  sandbox: { url: string; legacyUrl: string; requests: { at: number }[]; close(): Promise<void> },
  key: string,
  file: string,
  idleS: number,
): Promise<() => Promise<void>> {
  const dir = join(file, "..");
  const state: ShellSandboxState = { url: sandbox.url, legacyUrl: sandbox.legacyUrl, key, pid: process.pid };
  await writeFileAtomic(file, dir, `${JSON.stringify(state)}\n`);
  const started = Date.now();
  const release = async () => {
    const current = await readState(file);
    if (current?.pid === process.pid) await unlink(file).catch(() => {});
  };
  const timer = setInterval(
    () => {
      const last = sandbox.requests.at(-1)?.at ?? started;
      if (Date.now() - Math.max(last, started) < idleS * 1000) return;
      clearInterval(timer);
      void release()
        .then(() => sandbox.close())
        .then(() => process.exit(0));
    },
    Math.min(idleS * 250, 30_000),
  );
  return async () => {
    clearInterval(timer);
    await release();
  };
}
