/**
 * The built CLI (`node dist/cli.cjs --http --sandbox --port 0`) as a child process, for the tests
 * of the HTTP server as users start it (drain, conformance, telemetry, secrets). Build first (`npm test` does).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const CLI = fileURLToPath(new URL("../../dist/cli.cjs", import.meta.url));

export interface HttpChild {
  child: ChildProcess;
  /** `http://127.0.0.1:PORT/mcp` */
  url: string;
  stderr(): string;
  /** Settles with the exit code (or the signal's name). */
  exited: Promise<number | string>;
  /** Resolves once stderr contains `text`. */
  waitForStderr(text: string | RegExp): Promise<void>;
  kill(): Promise<void>;
}

/** `sandbox: false` leaves out `--sandbox`: the server then uses the API that `env` names. */
export async function spawnHttpServer(
  extraArgs: string[] = [],
  env: Record<string, string> = {},
  options: { sandbox?: boolean } = {},
) {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  const cleanEnv: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("WEBDATA_")) cleanEnv[k] = v;
  const mode = options.sandbox === false ? [] : ["--sandbox"];
  const child = spawn(process.execPath, [CLI, "--http", ...mode, "--port", "0", ...extraArgs], {
    env: { ...cleanEnv, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  const listeners = new Set<() => void>();
  child.stderr!.setEncoding("utf8");
  child.stderr!.on("data", (chunk: string) => {
    err += chunk;
    for (const l of [...listeners]) l();
  });
  const exited = new Promise<number | string>((resolve) => {
    child.once("exit", (code, signal) => {
      resolve(code ?? signal ?? -1);
      for (const l of [...listeners]) l();
    });
  });
  let done = false;
  void exited.then(() => {
    done = true;
  });
  const waitForStderr = (text: string | RegExp) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        const hit = typeof text === "string" ? err.includes(text) : text.test(err);
        if (hit) {
          listeners.delete(check);
          resolve();
        } else if (done) {
          listeners.delete(check);
          reject(new Error(`server exited before printing ${String(text)}; stderr:\n${err}`));
        }
      };
      listeners.add(check);
      check();
    });
  const kill = async () => {
    if (!done) {
      child.kill("SIGKILL");
      await exited;
    }
  };
  try {
    await waitForStderr(/at (http:\/\/\S+\/mcp)/);
  } catch (error) {
    await kill();
    throw error;
  }
  const url = /at (http:\/\/\S+\/mcp)/.exec(err)![1];
  const handle: HttpChild = { child, url, stderr: () => err, exited, waitForStderr, kill };
  return handle;
}
