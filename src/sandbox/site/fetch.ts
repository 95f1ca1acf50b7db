/**
 * What "fetching" a target URL gives, without touching the network: demo-site pages are served
 * from memory, an unreachable host (*.invalid, *.test-unreachable) fails, and any other URL gets a
 * deterministic synthetic page whose title comes from its host and path.
 */
import { seeded } from "../hash.js";
import { type LargePages, largeMegabytes } from "./large.js";
import { findPage, notFoundHtml, renderPage } from "./pages.js";

export type FetchOutcome =
  | {
      ok: true;
      url: string;
      status: number;
      title: string;
      html: string;
      links: string[];
      onSite: boolean;
      /** Precomputed Markdown, for pages too large to convert. */
      markdown?: string;
    }
  | { ok: false; url: string; error: string; errorType: string };

export interface SiteLocation {
  /** Origin of the sandbox, e.g. http://127.0.0.1:1234. */
  origin: string;
  siteUrl: string;
}

/** The site-relative path of `url` when it points into the demo site, else undefined. */
export function sitePath(url: URL, where: SiteLocation): string | undefined {
  const origin = new URL(where.origin);
  const sameHost = ["127.0.0.1", "localhost", origin.hostname].includes(url.hostname);
  if (!sameHost || url.port !== origin.port) return undefined;
  if (url.pathname !== "/site" && !url.pathname.startsWith("/site/")) return undefined;
  return url.pathname.slice("/site".length) || "/";
}

/** Hosts the sandbox treats as unreachable (DNS failure), to exercise failed tasks. */
export function isUnreachable(url: URL): boolean {
  return /(^|\.)(invalid|test-unreachable)$/i.test(url.hostname);
}

export function linksOf(html: string, base: string): string[] {
  const links = new Set<string>();
  for (const m of html.matchAll(/href="([^"#]+)"/g)) {
    try {
      links.add(new URL(m[1], base).toString());
    } catch {
      // not a URL: skip it, as a browser would
    }
  }
  return [...links];
}

function syntheticPage(url: URL): { title: string; html: string } {
  const random = seeded(url.toString());
  const words = ["market", "report", "guide", "update", "review", "overview", "pricing", "news", "story"];
  const segments = url.pathname.split("/").filter(Boolean);
  const title = `${url.hostname}${segments.length ? ` — ${segments.join(" / ")}` : ""}`;
  const paragraphs = Array.from({ length: 3 + Math.floor(random() * 3) }, (_, i) => {
    const topic = words[Math.floor(random() * words.length)];
    return `<p>Section ${i + 1} of the ${topic} on ${url.hostname}. This page was synthesised by the sandbox; no network request was made.</p>`;
  });
  const links = ["/", "/about", `/${words[Math.floor(random() * words.length)]}`];
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><main><h1>${title}</h1>
${paragraphs.join("\n")}
<ul>${links.map((l) => `<li><a href="${new URL(l, url).toString()}">${l}</a></li>`).join("")}</ul>
</main></body></html>
`;
  return { title, html };
}

/** `/site/large?mb=N`: a page of N megabytes, with its markdown. */
function largeTarget(url: URL, rawUrl: string, built: LargePages): FetchOutcome {
  const mb = largeMegabytes(url.searchParams.get("mb"));
  const { html, markdown } = built.page(mb);
  const title = `Large page (${mb} MB)`;
  return { ok: true, url: rawUrl, status: 200, title, html, links: [], onSite: true, markdown };
}

/** `/site/slow`: the home page under another title (its slowness is the server's). */
function slowTarget(rawUrl: string, where: SiteLocation): FetchOutcome {
  const page = findPage("/")!;
  const html = renderPage({ ...page, title: "Slow page" }, where.siteUrl);
  return {
    ok: true,
    url: rawUrl,
    status: 200,
    title: "Slow page",
    html,
    links: linksOf(html, rawUrl),
    onSite: true,
  };
}

/** What fetching `rawUrl` gives; `built` is the sandbox's large pages (each built once there). */
export function fetchTarget(rawUrl: string, where: SiteLocation, built: LargePages): FetchOutcome {
  const url = new URL(rawUrl);
  if (isUnreachable(url)) {
    return {
      ok: false,
      url: rawUrl,
      error: `Could not resolve host ${url.hostname}`,
      errorType: "dns_error",
    };
  }
  const path = sitePath(url, where);
  if (path === undefined) {
    const page = syntheticPage(url);
    return { ok: true, url: rawUrl, status: 200, ...page, links: linksOf(page.html, rawUrl), onSite: false };
  }
  if (path === "/large") return largeTarget(url, rawUrl, built);
  if (path === "/slow") return slowTarget(rawUrl, where);
  const page = findPage(path);
  if (!page) {
    return {
      ok: true,
      url: rawUrl,
      status: 404,
      title: "Page not found",
      html: notFoundHtml(path),
      links: [],
      onSite: true,
    };
  }
  const html = renderPage(page, where.siteUrl);
  return {
    ok: true,
    url: rawUrl,
    status: 200,
    title: page.title,
    html,
    links: linksOf(html, rawUrl),
    onSite: true,
  };
}

/** Status of the target without building its HTML (for task records at submission time). */
export function targetStatus(rawUrl: string, where: SiteLocation): number | undefined {
  const url = new URL(rawUrl);
  if (isUnreachable(url)) return undefined;
  const path = sitePath(url, where);
  if (path === undefined || path === "/large" || path === "/slow") return 200;
  return findPage(path) ? 200 : 404;
}
