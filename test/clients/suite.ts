/**
 * The checks every framework goes through, per transport: one `describe(framework)` with one
 * `describe(transport)` each and one test per check, named so the table reporter
 * (table-reporter.ts) can place it: "<check>" under "<framework>" › "<transport>". A check a
 * framework cannot do is skipped with its reason (`ctx.skip(reason)`), which the table shows.
 */
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { until } from "../helpers/mcp.js";
import { type Forwarded, linkForms, occurrences, pageLinks, serialized, tokenSplit } from "./forwarded.js";
import { readLinks } from "./links.js";
import { type Servers, serversForFile, TRANSPORTS, type TransportName } from "./servers.js";
import { captureWarnings } from "./warnings.js";

export const CHECKS = [
  "connect",
  "list",
  "search → extract → agent",
  "invalid argument reaches the model",
  "misspelled argument names the real one",
  "page body once per part forwarded",
  "page text reaches the model",
  "resource link reaches the model",
  "progress",
  "cancel",
  "convert without warnings",
] as const;
export type Check = (typeof CHECKS)[number];

export interface CallOptions {
  signal?: AbortSignal;
  /** Called for each progress update the framework surfaces. */
  onProgress?: () => void;
}

/** A framework connected to the server over one transport. */
export interface Session {
  /** The tool names as the framework hands them to a model. */
  toolNames: string[];
  /** What the framework's conversion of the listed tools refused or degraded (besides warnings). */
  conversionProblems?(): string[] | Promise<string[]>;
  /** Converted tool schemas worth showing (printed after the tables), by tool name. */
  converted?: Record<string, unknown>;
  /** One tool call, run the way the framework runs it once its (scripted) model picked the tool. */
  call(tool: string, args: Record<string, unknown>, options?: CallOptions): Promise<Forwarded>;
  close(): Promise<void>;
}

export interface FrameworkUnderTest {
  name: string;
  connect(transport: TransportName, servers: Servers): Promise<Session>;
  /** Checks the framework cannot do, with the reason (shown in the table). */
  cannot?: Partial<Record<Check, string>>;
  /**
   * Why an aborted call stays on the framework's side (it tells the server nothing): the cancel
   * check then proves only that the call ends as aborted, and notes this reason in the table.
   */
  cancelStaysLocal?: string;
  /** False for a client whose output reaches no model (no row in the token table). */
  measureTokens?: boolean;
}

/** The tools every flow needs; the framework must hand at least these to its model. */
const CORE_TOOLS = ["serp_search", "extract_page", "crawl_site", "run_agent", "check_domain_health"];

/** Words of the product page's body (the sandbox's demo shop), to count how often it is forwarded. */
const PAGE_BODY_WORDS = "Waterproof leather hiking boots";

export const TOKEN_CALLS: Array<{
  label: string;
  tool: string;
  args: (s: Servers) => Record<string, unknown>;
}> = [
  { label: "extract_page", tool: "extract_page", args: (s) => ({ url: productUrl(s) }) },
  {
    label: "crawl_site (5 pages)",
    tool: "crawl_site",
    args: (s) => ({ url: `${s.sandbox.siteUrl}/`, limit: 5 }),
  },
  {
    label: "check_domain_health (2 domains)",
    tool: "check_domain_health",
    args: () => ({ domains: ["example.com", "example.org"] }),
  },
  {
    label: "serp_search",
    tool: "serp_search",
    args: () => ({ search_engine: "engine1_search", query: "hiking boots", num_results: 10 }),
  },
];

const productUrl = (s: Servers) => `${s.sandbox.siteUrl}/shop/products/trailblazer-hiking-boots`;

/** Words of the product page's body only (not its URL, title or description). */
const PRODUCT_BODY = "Rated 4.6 out of 5";
/** Words of the site's home page body only. */
const HOME_BODY = "Gear for hiking, camping and trail running";

/** Every tool that reads pages, with words of a page body its answer must bring to the model. */
export const PAGE_CALLS: Array<{
  label: string;
  tool: string;
  args: (s: Servers) => Record<string, unknown>;
  body: string;
}> = [
  { label: "extract_page", tool: "extract_page", args: (s) => ({ url: productUrl(s) }), body: PRODUCT_BODY },
  {
    label: "crawl_site",
    tool: "crawl_site",
    args: (s) => ({ url: `${s.sandbox.siteUrl}/`, limit: 2 }),
    body: HOME_BODY,
  },
  {
    label: "extract_batch",
    tool: "extract_batch",
    args: (s) => ({ inputs: [{ url: productUrl(s) }, { url: `${s.sandbox.siteUrl}/` }] }),
    body: PRODUCT_BODY,
  },
  {
    label: "web_search (deep)",
    tool: "web_search",
    args: () => ({ query: "Trailblazer Hiking Boots", search_depth: "deep", max_results: 1 }),
    body: PRODUCT_BODY,
  },
  {
    label: "run_agent (formats markdown)",
    tool: "run_agent",
    args: (s) => ({
      agent: "ecommerce_product_page",
      params: JSON.stringify({ url: productUrl(s) }),
      formats: ["markdown"],
    }),
    // The sandbox's agents make their data up; the page body they return with formats is titled so.
    body: "E-commerce product page",
  },
];

/** "tool crawl_site failed: aborted" lines the server logged so far. */
const abortedLines = (s: Servers, t: TransportName) =>
  s.log(t).split("tool crawl_site failed: aborted").length - 1;

export function describeFramework(framework: FrameworkUnderTest): void {
  const servers = serversForFile();
  describe(framework.name, () => {
    for (const transport of TRANSPORTS) describeTransport(framework, transport, servers);
  });
}

function describeTransport(framework: FrameworkUnderTest, transport: TransportName, servers: Servers): void {
  describe(transport, () => {
    let session: Session | undefined;
    let connectError: unknown;
    let warnings: string[] = [];

    beforeAll(async () => {
      try {
        [session, warnings] = await captureWarnings(() => framework.connect(transport, servers));
        // Some frameworks convert (compile) a tool's schema at its first call: their warnings count too.
        const call = session.call.bind(session);
        session.call = async (tool, args, options) => {
          const [forwarded, said] = await captureWarnings(() => call(tool, args, options), { errors: false });
          warnings.push(...said);
          return forwarded;
        };
      } catch (error) {
        connectError = error;
      }
    }, 60_000);
    afterAll(async () => {
      await session?.close();
    });

    const check = (name: Check, body: (s: Session, ctx: TestContext) => Promise<void> | void) => {
      const reason = framework.cannot?.[name];
      const run = async (ctx: TestContext) => {
        if (reason) return ctx.skip(reason);
        if (!session) throw connectError;
        await body(session, ctx);
      };
      it(name, run);
    };

    check("connect", (s) => {
      expect(s.toolNames.length).toBeGreaterThan(0);
    });

    check("list", (s) => {
      for (const tool of CORE_TOOLS) expect(s.toolNames).toContain(tool);
    });

    check("search → extract → agent", async (s) => {
      const found = await s.call("serp_search", {
        search_engine: "engine1_search",
        query: "hiking boots",
        num_results: 3,
      });
      const url = /http:\/\/127\.0\.0\.1:\d+\/site\/shop\/products\/[a-z0-9-]+/.exec(serialized(found))?.[0];
      expect(url, serialized(found)).toBeDefined();
      const page = await s.call("extract_page", { url: url! });
      expect(serialized(page)).toMatch(/Vibram|hiking/i);
      // run_agent's params are JSON object text: an open object cannot be a strict schema.
      const agent = await s.call("run_agent", {
        agent: "ecommerce_product_page",
        params: JSON.stringify({ url }),
      });
      expect(serialized(agent)).toMatch(/\\?"price\\?"/);
    });

    /** A serp_search the model got wrong, as the model sees the answer. */
    const wrongSearch = async (s: Session, wrong: Record<string, unknown>) =>
      serialized(
        await s.call("serp_search", { search_engine: "engine1_search", query: "hiking boots", ...wrong }),
      );

    check("invalid argument reaches the model", async (s) => {
      const text = await wrongSearch(s, { num_results: 500 });
      expect(text).toContain("num_results");
      expect(text).toMatch(/100/);
    });

    check("misspelled argument names the real one", async (s) => {
      const text = await wrongSearch(s, { num_result: 3 });
      expect(text).toMatch(/did you mean[^a-z]*num_results/i);
    });

    check("page body once per part forwarded", async (s, ctx) => {
      const page = await s.call("extract_page", { url: productUrl(servers) });
      if (transport === "stdio" && framework.measureTokens !== false) {
        // The token table: what this framework forwards to its model per tool (over stdio: the
        // same results travel over HTTP).
        for (const { label, tool, args } of TOKEN_CALLS) {
          const forwarded = tool === "extract_page" ? page : await s.call(tool, args(servers));
          const row = { framework: framework.name, tool: label, ...tokenSplit(forwarded) };
          await ctx.annotate(JSON.stringify(row), "tokens");
        }
      }
      // The body is in the text and in the structured content (a framework may hand its model
      // either): once in each part the framework forwards, never more.
      const split = tokenSplit(page);
      const parts = split.text > 0 && split.structured > 0 ? 2 : 1;
      expect(occurrences(page, PAGE_BODY_WORDS)).toBe(parts);
    });

    // What the framework hands its model (Mastra: its agent's serialization of the tool output),
    // not the MCP result: the page's own words must be in it, for every tool that reads pages.
    check("page text reaches the model", async (s) => {
      const missing: string[] = [];
      for (const { label, tool, args, body } of PAGE_CALLS) {
        const forwarded = await s.call(tool, args(servers));
        if (occurrences(forwarded, body) === 0)
          missing.push(`${label}: ${serialized(forwarded).slice(0, 400)}`);
      }
      expect(missing).toEqual([]);
    });

    check("resource link reaches the model", async (s, ctx) => {
      const crawl = await s.call("crawl_site", { url: `${servers.sandbox.siteUrl}/`, limit: 3 });
      // Pages 2 and 3 are links (the first is inline): the model must see where to read them.
      const uris = pageLinks(crawl);
      expect(uris, serialized(crawl)).toHaveLength(2);
      for (const body of await readLinks(servers, transport, uris)) expect(body).toContain("Acme Outfitters");
      await ctx.annotate(`as ${linkForms(crawl, uris[0]!).join(" + ")}`, "note");
    });

    check("progress", async (s) => {
      servers.sandbox.configure({ crawlPageMs: 200 });
      let updates = 0;
      try {
        await s.call(
          "crawl_site",
          { url: `${servers.sandbox.siteUrl}/`, limit: 5 },
          { onProgress: () => updates++ },
        );
      } finally {
        servers.sandbox.configure({ crawlPageMs: 30 });
      }
      expect(updates).toBeGreaterThan(0);
    });

    check("cancel", async (s, ctx) => {
      if (framework.cancelStaysLocal) {
        await cancelStaysLocal(s, servers, framework.cancelStaysLocal);
        await ctx.annotate(`call ends aborted; ${framework.cancelStaysLocal}`, "note");
        return;
      }
      // A crawl that would take an hour: only the cancel can end this call within the test.
      servers.sandbox.configure({ crawlPageMs: 3_600_000 });
      const seen = abortedLines(servers, transport);
      const { outcome, crawlPath } = await abortCrawl(s, servers);
      expect(outcome).toMatch(/abort|cancel/i);
      // The server's work on it ends (it logs so) and it polls that crawl no more.
      await until(
        () => abortedLines(servers, transport),
        (n) => n > seen,
      );
      servers.sandbox.configure({ crawlPageMs: 30 });
      const after = servers.sandbox.requests.length;
      await s.call("crawl_site", { url: `${servers.sandbox.siteUrl}/`, limit: 2 });
      expect(servers.sandbox.requests.slice(after).filter((q) => q.path === crawlPath)).toEqual([]);
    });

    // Last: the warnings of every call before it count.
    check("convert without warnings", async (s, ctx) => {
      if (transport === "stdio") {
        for (const [tool, schema] of Object.entries(s.converted ?? {})) {
          await ctx.annotate(JSON.stringify({ framework: framework.name, tool, schema }), "converted");
        }
      }
      expect(warnings).toEqual([]);
      expect((await s.conversionProblems?.()) ?? []).toEqual([]);
    });
  });
}

/** Starts a crawl_site call, aborts it once the server polls the crawl, and returns how it ended. */
async function abortCrawl(s: Session, servers: Servers): Promise<{ outcome: string; crawlPath: string }> {
  const controller = new AbortController();
  const before = servers.sandbox.requests.length;
  const pending = s.call(
    "crawl_site",
    { url: `${servers.sandbox.siteUrl}/`, limit: 3 },
    { signal: controller.signal },
  );
  pending.catch(() => {});
  const polled = () =>
    servers.sandbox.requests
      .slice(before)
      .filter((q) => q.method === "GET" && /^\/v[12]\/crawl\//.test(q.path));
  await until(polled, (p) => p.length >= 1);
  controller.abort();
  const outcome = await pending.then(
    (forwarded) => serialized(forwarded),
    (error: unknown) => String(error),
  );
  return { outcome, crawlPath: polled()[0].path };
}

/** A framework that keeps a cancel to itself: the call still ends as aborted, not with the crawl. */
async function cancelStaysLocal(s: Session, servers: Servers, reason: string): Promise<void> {
  // A 6 s crawl: had the abort not ended the call, it would end with the crawl's pages instead.
  servers.sandbox.configure({ crawlPageMs: 2_000 });
  try {
    const { outcome } = await abortCrawl(s, servers);
    expect(outcome, reason).toMatch(/abort|cancel/i);
  } finally {
    servers.sandbox.configure({ crawlPageMs: 30 });
  }
}
