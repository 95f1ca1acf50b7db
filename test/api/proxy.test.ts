/** HTTP_PROXY: requests go through a local CONNECT/forward proxy when the environment names one. */
import { createServer, request as httpRequest, type Server } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { WebDataClient } from "../../src/api/client.js";
import { loadConfig } from "../../src/config.js";
import { startHttpServer } from "../../src/server/http.js";
import { type FakeServer, json, startFakeServer, TASK } from "../helpers/fake-upstream.js";
import { connect as connectMcp } from "../http/helpers.js";

interface Proxy {
  url: string;
  /** "CONNECT host:port" or "GET http://…" for each proxied request. */
  seen: string[];
  close(): Promise<void>;
}

async function startProxy(): Promise<Proxy> {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    // Forward proxy: the request line carries the absolute URL.
    seen.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? "");
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: req.method,
        headers: req.headers,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  server.on("connect", (req, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? "").split(":");
    const upstream = connect(Number(port), host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let proxy: Proxy | undefined;
let api: FakeServer | undefined;
let client: WebDataClient | undefined;

afterEach(async () => {
  await client?.close();
  await proxy?.close();
  await api?.close();
  client = undefined;
  proxy = undefined;
  api = undefined;
});

/** The proxy as the one config loader reads it from an environment naming these variables. */
const proxyFrom = (env: Record<string, string>) =>
  loadConfig({ ...env, WEBDATA_API_KEY: "k", WEBDATA_BASE_URL: "http://127.0.0.1" }).proxy;

describe("proxy", () => {
  it("sends requests through HTTP_PROXY when it is set", async () => {
    api = await startFakeServer((_req, res) => json(res, 200, { task: TASK }));
    proxy = await startProxy();
    client = new WebDataClient({
      baseUrl: api.url,
      apiKey: "proxy-key-1234567",
      proxy: proxyFrom({ HTTP_PROXY: proxy.url }),
    });
    await expect(client.getTask(TASK.id)).resolves.toMatchObject({ task: { id: TASK.id } });
    const host = new URL(api.url).host;
    expect(
      proxy.seen.some((line) => line === `CONNECT ${host}` || line.startsWith(`GET ${api?.url}/v1/tasks/`)),
    ).toBe(true);
    expect(api.requests).toHaveLength(1);
  });

  it("goes direct for hosts listed in NO_PROXY", async () => {
    api = await startFakeServer((_req, res) => json(res, 200, { task: TASK }));
    proxy = await startProxy();
    client = new WebDataClient({
      baseUrl: api.url,
      apiKey: "proxy-key-1234567",
      proxy: proxyFrom({ HTTP_PROXY: proxy.url, NO_PROXY: "127.0.0.1" }),
    });
    await client.getTask(TASK.id);
    expect(proxy.seen).toHaveLength(0);
    expect(api.requests).toHaveLength(1);
  });

  it("goes direct when no proxy is set", async () => {
    api = await startFakeServer((_req, res) => json(res, 200, { task: TASK }));
    proxy = await startProxy();
    client = new WebDataClient({
      baseUrl: api.url,
      apiKey: "proxy-key-1234567",
      proxy: proxyFrom({}),
    });
    await client.getTask(TASK.id);
    expect(proxy.seen).toHaveLength(0);
  });

  it("is used by the HTTP server's clients too (one per API key), not only stdio's", async () => {
    api = await startFakeServer((_req, res) => json(res, 200, { task: TASK }));
    proxy = await startProxy();
    const config = loadConfig({
      WEBDATA_API_KEY: "wdk_proxyQZXJVKWPRTM",
      WEBDATA_BASE_URL: api.url,
      HTTP_PROXY: proxy.url,
    });
    const http = await startHttpServer({ config, port: 0, log: () => {} });
    const mcp = await connectMcp(http.url);
    try {
      // The answer does not matter (the fake upstream answers a task to everything): the request does.
      await mcp.client.callTool({
        name: "serp_search",
        arguments: { search_engine: "engine1_search", query: "boots" },
      });
      expect(api.requests.length).toBeGreaterThan(0);
      expect(proxy.seen.length, "requests that went through the proxy").toBeGreaterThan(0);
    } finally {
      await mcp.close();
      await http.shutdown(0);
    }
  });
});
