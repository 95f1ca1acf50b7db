/** `linkSignals`: the cheap `AbortSignal.any` + timeout the client and every tool call use. */
import { setMaxListeners } from "node:events";
import { describe, expect, it, vi } from "vitest";
import { linkSignals } from "../../src/api/abort.js";

const listeners = (signal: AbortSignal) => {
  let count = 0;
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = ((...a: Parameters<typeof add>) => {
    count += 1;
    add(...a);
  }) as typeof add;
  signal.removeEventListener = ((...a: Parameters<typeof remove>) => {
    count -= 1;
    remove(...a);
  }) as typeof remove;
  return () => count;
};

describe("linkSignals", () => {
  it("aborts with the reason of whichever source aborts first", () => {
    const a = new AbortController();
    const b = new AbortController();
    const linked = linkSignals([a.signal, undefined, b.signal]);
    expect(linked.signal.aborted).toBe(false);
    b.abort(new Error("second"));
    expect(linked.signal.aborted).toBe(true);
    expect((linked.signal.reason as Error).message).toBe("second");
    a.abort(new Error("late"));
    expect((linked.signal.reason as Error).message).toBe("second");
  });

  it("is aborted at once when a source already is", () => {
    const a = new AbortController();
    a.abort("gone");
    expect(linkSignals([a.signal]).signal.reason).toBe("gone");
  });

  it("times out with a TimeoutError carrying the given message", async () => {
    const linked = linkSignals([new AbortController().signal], { ms: 20, message: "deadline" });
    await new Promise((r) => linked.signal.addEventListener("abort", r, { once: true }));
    const reason = linked.signal.reason as DOMException;
    expect(reason.name).toBe("TimeoutError");
    expect(reason.message).toBe("deadline");
  });

  it("dispose() leaves no listener on a long-lived source and no timer to fire", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const source = new AbortController();
      // 100 live links at once on purpose: not the leak Node warns about past 10.
      setMaxListeners(100, source.signal);
      const count = listeners(source.signal);
      const links = Array.from({ length: 100 }, () => linkSignals([source.signal], { ms: 30 }));
      expect(count()).toBe(100);
      expect(vi.getTimerCount()).toBe(100);
      for (const link of links) link.dispose();
      expect(count()).toBe(0);
      expect(vi.getTimerCount()).toBe(0);
      vi.advanceTimersByTime(60);
      expect(links.every((l) => !l.signal.aborted)).toBe(true);
      source.abort();
      expect(links.every((l) => !l.signal.aborted)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("stops listening once it has aborted", () => {
    const a = new AbortController();
    const b = new AbortController();
    const countB = listeners(b.signal);
    linkSignals([a.signal, b.signal]);
    expect(countB()).toBe(1);
    a.abort();
    expect(countB()).toBe(0);
  });
});
