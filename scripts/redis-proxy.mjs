// A loopback TCP proxy in front of a Redis server that counts the round trips its clients make:
// each chunk a client sends that starts a RESP array is one write (a pipeline, a MULTI/EXEC or an
// EVAL is one). The replicas' once-a-second heartbeat (`wd:replica:<id>`) is left out. Used by the
// round-trip test (test/fleet/round-trips.test.ts) and the fleet bench. Types: redis-proxy.d.mts.
import { createServer, connect as tcpConnect } from "node:net";

/** Starts the proxy on a free loopback port in front of `target` (a `redis://host:port` URL). */
export async function countingRedisProxy(target) {
  const { hostname, port } = new URL(target);
  const sockets = new Set();
  let writes = [];
  const server = createServer((client) => {
    const upstream = tcpConnect(Number(port), hostname);
    sockets.add(client).add(upstream);
    client.on("data", (chunk) => {
      const text = chunk.toString("latin1");
      // A loaded machine may deliver one write in two chunks: only a chunk that starts one counts.
      if (text.startsWith("*") && !text.includes("wd:replica:"))
        writes.push(text.replace(/\r\n/g, " ").slice(0, 120));
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => client.write(chunk));
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
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
