import type { ServerResponse } from "node:http";
import { request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "./clock.js";
import { type FakeServer, startFakeServer } from "./fake-upstream.js";

const START = Date.UTC(2026, 0, 1);
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

/** The fake upstream, each response held until the test answers it (`held[i]`). */
async function holdingServer(): Promise<FakeServer & { held: ServerResponse[] }> {
  const held: ServerResponse[] = [];
  const server = await startFakeServer((_req, res) => void held.push(res));
  return Object.assign(server, { held });
}

let server: (FakeServer & { held: ServerResponse[] }) | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
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
    server = await holdingServer();
    const clock = new ManualClock({ auto: true });
    let deadlinePassed = false;
    const deadline = clock.sleep(20_000).then(() => {
      deadlinePassed = true;
    });
    const response = request(server.url);
    await server.received(1);
    await turns(20);
    expect(deadlinePassed).toBe(false);
    expect(clock.now()).toBe(START);

    server.held[0]?.end("done");
    expect(await (await response).body.text()).toBe("done");
    await deadline;
    expect(clock.now()).toBe(START + 20_000);
  });

  it("moves time while an event stream stays open", async () => {
    server = await holdingServer();
    const clock = new ManualClock({ auto: true });
    const stream = request(server.url);
    await server.received(1);
    server.held[0]?.writeHead(200, { "content-type": "text/event-stream" }).write(": open\n\n");
    const { body } = await stream;
    await clock.sleep(1_000);
    expect(clock.now()).toBe(START + 1_000);
    body.destroy();
  });

  it("waits only for requests made after the clock", async () => {
    server = await holdingServer();
    const earlier = request(server.url).catch(() => {});
    await server.received(1);
    const clock = new ManualClock({ auto: true });
    await clock.sleep(250);
    expect(clock.now()).toBe(START + 250);
    server.held[0]?.end();
    await earlier;
  });
});
