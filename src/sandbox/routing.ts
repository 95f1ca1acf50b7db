/**
 * The sandbox's one router: every API area is a table of routes, each with its generation-1 and
 * generation-2 side side by side (as `src/api/routes.ts` is for the client). A side names its
 * path and the shape of its answer; the handler builds the generation-1 spec answer once, and
 * the side's shapes turn it into that side's answer before it is sent: nothing is rewritten
 * after the fact.
 *
 * - `reply(body, at)`: this side's answer in both dialects (generation-2 shapes do not depend on
 *   the dialect, web-data-api-v2.md §3–§11).
 * - `live(body, at)`: then, in the `live` dialect (`X-Sandbox-Dialect`, dialect.ts) only.
 * - `dialect`: the side exists in that dialect only (the SDK-only `POST /v1/map`); else 404.
 * - `specV2`: a `/v2` path the generation-1 spec lists itself (SERP, template run/batch/versions,
 *   a job's runs, a download URL). Every other generation-2 side answers 404 when the sandbox is
 *   started with `generation2: false`, as a service with generation 1 only would.
 *
 * The handler returns a `Response` as it is (errors, 204s, streams) or a body to shape and send
 * as 200 JSON; `NEXT` passes the request on to the routes registered after it.
 */
import { Hono } from "hono";
import type { SandboxState } from "./context.js";
import type { Dialect } from "./dialect.js";
import { type Ctx, errorResponse, type SandboxEnv } from "./http.js";

export type Gen = 1 | 2;
type Method = "GET" | "POST" | "PATCH" | "DELETE";

/** What a shape sees besides the body. */
export interface At {
  state: SandboxState;
  gen: Gen;
  dialect: Dialect;
  path: string;
  query: URLSearchParams;
}
export type Shape = (body: any, at: At) => unknown;

export interface Side {
  path: string;
  reply?: Shape;
  live?: Shape;
  dialect?: Dialect;
  specV2?: true;
}

/** Passes the request on to the next matching route. */
export const NEXT = Symbol("next");

export interface Route<S extends object = object> {
  method: Method;
  1?: Side & S;
  2?: Side & S;
  handle: (
    c: Ctx,
    on: { state: SandboxState; side: Side & S; gen: Gen },
  ) => Response | object | typeof NEXT | Promise<Response | object | typeof NEXT>;
}

/** A route with any side data, as a table holds it. */
export type AnyRoute = Route<any>;

/** A route whose sides carry data of their own (`S`), typed for its handler. */
export const route = <S extends object>(r: Route<S>): AnyRoute => r;

const noRoute = (c: Ctx) => errorResponse(c, 404, `No route for ${c.req.method} ${c.req.path}`);

/** The request's dialect, set by the `chooseDialect` middleware (spec when unset). */
export const dialectOfRequest = (c: Ctx): Dialect => c.get("dialect") ?? "spec";

/** The side's answer to `body`: its `reply`, then in the live dialect its `live`. */
export function shape(side: Side, body: unknown, at: At): unknown {
  const replied = side.reply ? side.reply(body, at) : body;
  return at.dialect === "live" && side.live ? side.live(replied, at) : replied;
}

/** One hono router for route tables: each side of each route under its own path. */
export function mount(state: SandboxState, ...tables: AnyRoute[][]): Hono<SandboxEnv> {
  const r = new Hono<SandboxEnv>();
  for (const route of tables.flat()) {
    for (const gen of [1, 2] as const) {
      const side = route[gen];
      if (side) r.on(route.method, side.path, (c, next) => answer(c, next, state, route, side, gen));
    }
  }
  return r;
}

async function answer(
  c: Ctx,
  next: () => Promise<void>,
  state: SandboxState,
  route: AnyRoute,
  side: Side,
  gen: Gen,
): Promise<Response | undefined> {
  const dialect = dialectOfRequest(c);
  if (gen === 2 && !side.specV2 && state.config.generation2 === false) return noRoute(c);
  if (side.dialect && side.dialect !== dialect) return noRoute(c);
  const out = await route.handle(c, { state, side, gen });
  if (out === NEXT) return void (await next());
  if (out instanceof Response) return out;
  const at: At = { state, gen, dialect, path: c.req.path, query: new URL(c.req.url).searchParams };
  return c.body(jsonBytes(shape(side, out, at)), 200, JSON_TYPE);
}

const JSON_TYPE = { "Content-Type": "application/json" };
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * The body `c.json` would send, as bytes: an ASCII text (most answers, a 20 MB page's too) is
 * copied byte for byte, where a string body is measured for its Content-Length, then encoded to
 * UTF-8 again as it is written (Node 20 does both a character at a time: ~0.3 s for 20 MB).
 */
function jsonBytes(body: unknown): Uint8Array<ArrayBuffer> {
  const text = JSON.stringify(body) ?? "";
  return Buffer.from(text, NON_ASCII.test(text) ? "utf8" : "latin1") as Uint8Array<ArrayBuffer>;
}
