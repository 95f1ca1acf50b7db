/**
 * The shell sandbox's state file is checked before it is trusted (issue 23): `sandbox --stop`
 * kills only a pid that is our sandbox (its command line says so) named in a file we own, and
 * `call --sandbox` never calls a URL from it that is not loopback.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, expect, it } from "vitest";
import { shellSandbox, stopShellSandbox } from "../../src/cli/shell-sandbox.js";
import { CLI } from "../helpers/mcp.js";

let cache: string;
let victim: ChildProcess | undefined;
let server: Server | undefined;

beforeEach(() => {
  cache = mkdtempSync(join(tmpdir(), "webdata-shell-state-"));
});

afterEach(async () => {
  victim?.kill("SIGKILL");
  victim = undefined;
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
  await stopShellSandbox(cache);
  rmSync(cache, { recursive: true, force: true });
});
afterAll(() => victim?.kill("SIGKILL"));

const writeState = (state: object) => {
  const file = join(cache, "shell-sandbox.json");
  writeFileSync(file, JSON.stringify(state), { mode: 0o600 });
  return file;
};

it("sandbox --stop does not kill a pid that is not our sandbox", async () => {
  victim = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  writeState({
    url: "http://127.0.0.1:9",
    legacyUrl: "http://127.0.0.1:9/legacy",
    key: "sbx_x",
    pid: victim.pid,
  });
  const said = await stopShellSandbox(cache);
  expect(said).not.toMatch(/^stopped/);
  expect(said).toMatch(/not .*shell sandbox/);
  expect(victim.exitCode).toBeNull();
  expect(victim.signalCode).toBeNull();
});

it("sandbox --stop ignores a state file others can write", async () => {
  victim = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  const file = writeState({ url: "http://127.0.0.1:9", legacyUrl: "", key: "sbx_x", pid: victim.pid });
  chmodSync(file, 0o666);
  expect(await stopShellSandbox(cache)).not.toMatch(/^stopped/);
});

const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === "IPv4" && !a.internal)?.address;

it.skipIf(lanAddress === undefined)("call --sandbox does not trust a URL that is not loopback", async () => {
  server = createServer((_req, res) => res.end("[]"));
  await new Promise<void>((resolve) => server?.listen(0, "0.0.0.0", resolve));
  const url = `http://${lanAddress}:${(server.address() as AddressInfo).port}`;
  writeState({ url, legacyUrl: `${url}/legacy`, key: "sbx_x", pid: process.pid });
  const used = await shellSandbox(cache, CLI, process.env);
  expect(used.url).not.toBe(url);
  expect(new URL(used.url).hostname).toBe("127.0.0.1");
  expect(used.started).toBe(true);
});
