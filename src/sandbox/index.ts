/** The local emulator of the Web Data API: `startSandbox()` and the `sandbox` CLI command. */
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import type { AgentDetail } from "../api/schemas.js";
import { createApp } from "./app.js";
import { SandboxState } from "./context.js";
import { allowedHostValues, isLoopbackName, isWildcard } from "./loopback.js";
import type { Sandbox, SandboxOptions } from "./types.js";

export type {
  AuthKind,
  CallbackLogEntry,
  Fault,
  FaultController,
  FaultKind,
  RequestLogEntry,
  Sandbox,
  SandboxOptions,
} from "./types.js";

/** Thrown before binding when the options would expose the sandbox unsafely. */
export class SandboxOptionsError extends Error {
  override name = "SandboxOptionsError";
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? "127.0.0.1";
  if (!isLoopbackName(host) && !options.key) {
    throw new SandboxOptionsError(
      `binding the sandbox to ${host} (beyond loopback) needs --key K: from another host anyone could read its request log and make it send requests`,
    );
  }
  const state = new SandboxState(options);
  const app = createApp(state);
  const server = createAdaptorServer({ fetch: app.fetch, hostname: host }) as import("node:http").Server;
  // Node's 5 s default drops an idle keep-alive socket on a timer that can fire, on a stalled event
  // loop, before the request a client just sent on it is read: the client sees ECONNRESET and, for a
  // POST, may not retry. Idle sockets are the client's to close (undici: after 4 s by default).
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const port = address.port;
  const literal = (h: string) => (h.includes(":") ? `[${h}]` : h);
  const urlHost = isWildcard(host) ? "127.0.0.1" : literal(host);
  const url = `http://${urlHost}:${port}`;
  state.location = { origin: url, url, legacyUrl: `${url}/legacy`, siteUrl: `${url}/site` };
  state.allowedHosts = allowedHostValues(host, port, options.allowedHosts);

  let closing: Promise<void> | undefined;
  return {
    url,
    legacyUrl: state.location.legacyUrl,
    siteUrl: state.location.siteUrl,
    bound: `${literal(address.address)}:${port}`,
    requests: state.requests,
    callbacks: state.callbacks.log,
    faults: state.faults,
    configure: (p) => state.configure(p),
    catalog: {
      add: (agent: AgentDetail) => state.catalog.add(agent),
      remove: (name: string) => state.catalog.remove(name),
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        state.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/**
 * `web-data-mcp sandbox [--host H] [--port P] [--key K] [--allow-callbacks] [--dialect spec|live]`: starts the sandbox
 * and writes what it bound to stderr. Resolves to the running sandbox; the caller closes it.
 */
export async function runSandboxCommand(options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = await startSandbox(options);
  const keyNote = options.key ? "only the given key" : "any non-empty bearer key";
  const callbacks = options.allowCallbacks ? "loopback callbacks on" : "callbacks off (--allow-callbacks)";
  const where = sandbox.bound.startsWith(new URL(sandbox.url).host)
    ? sandbox.url
    : `${sandbox.url} (bound to ${sandbox.bound})`;
  const dialectNote = options.dialect === "live" ? "; live dialect" : "";
  process.stderr.write(
    `web-data sandbox listening on ${where} (accepts ${keyNote}; ${callbacks}; demo site ${sandbox.siteUrl}${dialectNote})\n`,
  );
  return sandbox;
}
