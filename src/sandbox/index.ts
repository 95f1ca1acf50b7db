/** The local emulator of the Web Data API: `startSandbox()` and the `sandbox` CLI command. */
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import type { AgentDetail } from "../api/schemas.js";
import { createApp } from "./app.js";
import { SandboxState } from "./context.js";
import type { Sandbox, SandboxOptions } from "./types.js";

export type {
  AuthKind,
  Fault,
  FaultController,
  FaultKind,
  RequestLogEntry,
  Sandbox,
  SandboxOptions,
} from "./types.js";

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const state = new SandboxState(options);
  const app = createApp(state);
  const server = createAdaptorServer({ fetch: app.fetch, hostname: options.host ?? "127.0.0.1" });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(":") ? `[${host}]` : host === "0.0.0.0" ? "127.0.0.1" : host;
  const url = `http://${urlHost}:${port}`;
  state.location = { origin: url, url, legacyUrl: `${url}/legacy`, siteUrl: `${url}/site` };

  let closing: Promise<void> | undefined;
  return {
    url,
    legacyUrl: state.location.legacyUrl,
    siteUrl: state.location.siteUrl,
    requests: state.requests,
    faults: state.faults,
    configure: (p) => state.configure(p),
    catalog: {
      add: (agent: AgentDetail) => state.catalog.add(agent),
      remove: (name: string) => state.catalog.remove(name),
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        state.close();
        const http = server as import("node:http").Server;
        http.close(() => resolve());
        http.closeAllConnections();
      });
      return closing;
    },
  };
}

/**
 * `web-data-mcp sandbox [--port P] [--key K]`: starts the sandbox and writes one line with its URL
 * to stderr. Resolves to the running sandbox; the caller closes it (e.g. on SIGINT).
 */
export async function runSandboxCommand(
  options: { port?: number; key?: string; host?: string } = {},
): Promise<Sandbox> {
  const sandbox = await startSandbox(options);
  const keyNote = options.key ? "only the given key" : "any non-empty bearer key";
  process.stderr.write(
    `web-data sandbox listening on ${sandbox.url} (accepts ${keyNote}; demo site ${sandbox.siteUrl})\n`,
  );
  return sandbox;
}
