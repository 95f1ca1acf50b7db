import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "./clock.js";

const START = Date.UTC(2026, 0, 1);
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

/** A loopback server that holds each request until the test answers it. */
async function holdingServer() {
  const held: Array<{ req: IncomingMessage; res: ServerResponse }> = [];
  let arrived: () => void = () => {};
  const server = createServer((req, res) => {
    held.push({ req, res });
    arrived();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    held,
    nextArrival: () =>
      new Promise<void>((resolve) => {
        arrived = resolve;
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeServer?.();
  closeServer = undefined;
});

describe("ManualClock in auto mode", () => {
  it("wakes every sleep started in the same turn, the later one too", async () => {
    const clock = new ManualClock({ auto: true });
    const woke: number[] = [];
    await Promise.all([
      clock.sleep(100).then(() => woke.push(clock.now() - START)),
      clock.sleep(5_000).then(() => woke.push(clock.now() - START)),
    ]);
    expect(woke).toEqual([100, 5_000]);
    expect(clock.pending).toBe(0);
  });

  it("does not move time while one of its requests is in flight, and does once it has ended", async () => {
    const server = await holdingServer();
    closeServer = server.close;
    const clock = new ManualClock({ auto: true });
    let deadlinePassed = false;
    const deadline = clock.sleep(20_000).then(() => {
      deadlinePassed = true;
    });
    const arrival = server.nextArrival();
    const response = request(server.url);
    await arrival;
    await turns(20);
    expect(deadlinePassed).toBe(false);
    expect(clock.now()).toBe(START);

    server.held[0]?.res.end("done");
    expect(await (await response).body.text()).toBe("done");
    await deadline;
    expect(clock.now()).toBe(START + 20_000);
  });

  it("moves time while an event stream stays open", async () => {
    const server = await holdingServer();
    closeServer = server.close;
    const clock = new ManualClock({ auto: true });
    const arrival = server.nextArrival();
    const stream = request(server.url);
    await arrival;
    server.held[0]?.res.writeHead(200, { "content-type": "text/event-stream" }).write(": open\n\n");
    const { body } = await stream;
    await clock.sleep(1_000);
    expect(clock.now()).toBe(START + 1_000);
    body.destroy();
  });

  it("waits only for requests made after the clock", async () => {
    const server = await holdingServer();
    closeServer = server.close;
    const arrival = server.nextArrival();
    const earlier = request(server.url).catch(() => {});
    await arrival;
    const clock = new ManualClock({ auto: true });
    await clock.sleep(250);
    expect(clock.now()).toBe(START + 250);
    server.held[0]?.res.end();
    await earlier;
  });
});
