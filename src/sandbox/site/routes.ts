/** The demo web site under /site: plain HTML, no auth, never logged or rate limited. */
import { Hono } from "hono";
import { stream } from "hono/streaming";
import type { SandboxState } from "../context.js";
import type { SandboxEnv } from "../http.js";
import { largeMegabytes, largePageChunks } from "./large.js";
import { findPage, notFoundHtml, renderPage } from "./pages.js";

const MAX_SLOW_MS = 30_000;

export function siteRoutes(state: SandboxState) {
  const r = new Hono<SandboxEnv>();
  const siteUrl = () => state.location.siteUrl;

  r.get("/large", (c) => {
    const mb = largeMegabytes(c.req.query("mb"));
    c.header("content-type", "text/html; charset=utf-8");
    return stream(c, async (s) => {
      for (const chunk of largePageChunks(mb)) {
        if (s.aborted) return;
        await s.write(chunk);
      }
    });
  });

  r.get("/slow", async (c) => {
    const ms = Math.min(MAX_SLOW_MS, Math.max(0, Number(c.req.query("ms") ?? 2000) || 0));
    await state.timers.sleep(ms);
    return c.html(renderPage({ ...findPage("/")!, title: "Slow page" }, siteUrl()));
  });

  r.get("/*", (c) => {
    const path = c.req.path.slice("/site".length) || "/";
    const page = findPage(path);
    if (!page) return c.html(notFoundHtml(path), 404);
    return c.html(renderPage(page, siteUrl()));
  });

  return r;
}
