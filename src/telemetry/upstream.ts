/**
 * The client's observer as OpenTelemetry: a CLIENT span per upstream HTTP attempt (named
 * `{method} {url.template}`, with `http.request.resend_count` on retries), an INTERNAL span per
 * wait (`wait rate_limit`, `wait backoff`, `wait limiter`), all children of the active MCP
 * request span; and the upstream metrics (request duration by endpoint and status, 429 count,
 * rate-limit wait time).
 */
import {
  type Attributes,
  type ContextManager,
  type Meter,
  SpanKind,
  SpanStatusCode,
  type Tracer,
} from "@opentelemetry/api";
import type { ApiObserver, AttemptInfo, AttemptOutcome, WaitInfo } from "../api/observer.js";
import { ROUTES, type Route } from "../api/routes.js";
import { OTHER } from "./labels.js";

/** The legacy endpoint, the one path outside the route table. */
const LEGACY: Array<[RegExp, string]> = [
  [
    /\/api\/v1\/realtime\/social\/[^/]+\/v1\/events\/[^/]+\/details$/,
    "/api/v1/realtime/social/{platform}/v1/events/{event_id}/details",
  ],
];
const FIXED = /\/(v1|v2|api)\/.*$/;

/**
 * A path parameter's name in a label, from the kind of id the route takes there (its work rule):
 * `{task_id}`, `{crawl_id}`, `{run_id}`…, a template's `{name}`; an id the route does not check
 * (generation 1's job above a run) by its own name.
 */
function labelOf(route: Route, param: string): string {
  const taken = route.work === "none" ? undefined : route.work.takes?.find((t) => t.param === param);
  if (!taken) return `${param}_id`;
  if (taken.kind === "template") return "name";
  if (taken.kind === "research_agent") return "agent_id";
  if (taken.kind === "research_run") return "run_id";
  return `${taken.kind}_id`;
}

const params = (path: string) => (path.match(/\{/g) ?? []).length;
const fixed = (path: string) => path.split("/").filter((part) => !part.startsWith("{")).length;

/** The route table's paths (src/api/routes.ts), each as the pattern of its template, ids named from the route's work rule. */
const ROUTE_TEMPLATES: Array<[RegExp, string]> = Object.values(ROUTES as Record<string, Route>)
  .flatMap((route) =>
    [route[1]?.path, route[2]?.path].flatMap((path) =>
      path === undefined
        ? []
        : [{ path, label: path.replace(/\{(\w+)\}/g, (_, p: string) => `{${labelOf(route, p)}}`) }],
    ),
  )
  // A fixed path wins over a template it also matches (`v1/agents/run` over `v1/agents/{name}`).
  // and a longer fixed part over a shorter (`…/templates/generations/{id}` over `…/templates/{name}`).
  .sort((a, b) => params(a.path) - params(b.path) || fixed(b.path) - fixed(a.path))
  .map(({ path, label }) => [
    new RegExp(`^/${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}/g, "[^/]+")}$`),
    `/${label}`,
  ]);

/**
 * `url.template` of a request: the API path (any base-URL prefix dropped), ids replaced; a path
 * outside the known routes is `other` (a metric label from a closed set).
 */
export function endpointOf(url: URL): string {
  for (const [pattern, template] of LEGACY) if (pattern.test(url.pathname)) return template;
  const tail = FIXED.exec(url.pathname)?.[0];
  if (tail === undefined) return OTHER;
  for (const [pattern, template] of ROUTE_TEMPLATES) if (pattern.test(tail)) return template;
  return OTHER;
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export function upstreamObserver(tracer: Tracer, meter: Meter, contexts: ContextManager): ApiObserver {
  const instruments = upstreamInstruments(meter);
  const otel = { tracer, contexts, instruments };
  return {
    attempt: (info) => traceAttempt(otel, info),
    waited: (info) => traceWait(otel, info),
  };
}

type Instruments = ReturnType<typeof upstreamInstruments>;
interface Otel {
  tracer: Tracer;
  contexts: ContextManager;
  instruments: Instruments;
}

/** The upstream metrics: request duration, 429 count, wait time. */
function upstreamInstruments(meter: Meter) {
  return {
    duration: meter.createHistogram("webdata.upstream.request.duration", {
      description: "Duration of HTTP requests to the Web Data API, by endpoint and status",
      unit: "s",
      advice: { explicitBucketBoundaries: SECONDS },
    }),
    rateLimited: meter.createCounter("webdata.upstream.rate_limited", {
      description: "429 answers from the Web Data API",
      unit: "{response}",
    }),
    waits: meter.createHistogram("webdata.upstream.wait.duration", {
      description:
        "Time spent waiting before upstream requests: rate limits (429 and the client's limiter) and retry backoff",
      unit: "s",
      advice: { explicitBucketBoundaries: SECONDS },
    }),
  };
}

/** Opens an attempt's CLIENT span; the function returned ends it and records its metrics. */
function traceAttempt({ tracer, contexts, instruments }: Otel, { method, url, attempt }: AttemptInfo) {
  const template = endpointOf(url);
  const attributes: Attributes = {
    "http.request.method": method,
    "url.template": template,
    "server.address": url.hostname,
    "server.port": Number(url.port || (url.protocol === "https:" ? 443 : 80)),
  };
  if (attempt > 1) attributes["http.request.resend_count"] = attempt - 1;
  const span = tracer.startSpan(
    `${method} ${template}`,
    { kind: SpanKind.CLIENT, attributes },
    contexts.active(),
  );
  const started = performance.now();
  return ({ status, error }: AttemptOutcome) => {
    const errorType = error ?? (status !== undefined && status >= 400 ? String(status) : undefined);
    if (status !== undefined) span.setAttribute("http.response.status_code", status);
    if (errorType) {
      span.setAttribute("error.type", errorType);
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
    const metric: Attributes = { "http.request.method": method, "url.template": template };
    if (status !== undefined) metric["http.response.status_code"] = status;
    if (errorType) metric["error.type"] = errorType;
    instruments.duration.record((performance.now() - started) / 1000, metric);
    if (status === 429) instruments.rateLimited.add(1, { "url.template": template });
  };
}

/** A wait as an INTERNAL span over its start and end, and in the wait-time metric. */
function traceWait(
  { tracer, contexts, instruments }: Otel,
  { reason, url, attempt, startMs, endMs }: WaitInfo,
) {
  const template = endpointOf(url);
  const span = tracer.startSpan(
    `wait ${reason}`,
    {
      kind: SpanKind.INTERNAL,
      startTime: startMs,
      attributes: { "webdata.wait.reason": reason, "url.template": template, "webdata.attempt": attempt },
    },
    contexts.active(),
  );
  span.end(endMs);
  instruments.waits.record((endMs - startMs) / 1000, {
    "webdata.wait.reason": reason,
    "url.template": template,
  });
}
