// A loopback TCP proxy in front of a Redis server that counts the round trips its clients make: on
// each connection, what the client sends before Redis answers is one round trip (a pipeline, a
// MULTI/EXEC or an EVAL is one, however TCP splits it). The replicas' once-a-second heartbeat (`wd:replica:<id>`) is left out. `stall()`
// stops passing Redis's answers on (a Redis that hangs, connections open). Used by the round-trip
// and stalled-Redis tests (test/fleet/, test/http/) and the fleet bench. Types: redis-proxy.d.mts.
import { createServer, connect as tcpConnect } from "node:net";

/** Starts the proxy on a free loopback port in front of `target` (a `redis://host:port` URL). */
export async function countingRedisProxy(target) {
  const { hostname, port } = new URL(target);
  const sockets = new Set();
  let writes = [];
  let stalled = false;
  const server = createServer((client) => {
    const upstream = tcpConnect(Number(port), hostname);
    sockets.add(client).add(upstream);
    let sending = false;
    client.on("data", (chunk) => {
      const text = chunk.toString("latin1");
      if (!sending && !text.includes("wd:replica:")) writes.push(text.replace(/\r\n/g, " ").slice(0, 120));
      sending = true;
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      sending = false;
      if (!stalled) client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `redis://127.0.0.1:${server.address().port}`,
    /** The writes since the last `reset()`, each as its first 120 characters. */
    writes: () => [...writes],
    reset: () => {
      writes = [];
    },
    /** From now on Redis's answers are dropped: every command waits forever unless it times out. */
    stall: () => {
      stalled = true;
    },
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
