/**
 * Media download (§12; generation 1 §18): POST /v{1,2}/media (waits for the download) and
 * /v{1,2}/media/async (a task to poll). The result's `data` is ours (the SDK types none):
 * `{content_type, size_bytes, file_name, download_url}`, the file itself served without a bearer
 * at /downloads/media/{task_id} like a bucket URL. An image URL (.png/.jpg/.gif/.webp) gives a
 * small PNG, a .pdf URL a few bytes of application/pdf, a demo-site page its HTML, anything else
 * a few bytes of application/octet-stream.
 * An unreachable host fails the task as extract does.
 */
import { MediaRequestSchema } from "../../api/schemas-v2.js";
import type { SandboxState } from "../context.js";
import { FAULT_HEADER } from "../faults.js";
import { type Ctx, notFound, parseBody } from "../http.js";
import type { Route, Shape } from "../routing.js";
import { screenshotPng } from "../screenshot.js";
import { fetchTarget } from "../site/fetch.js";

function mediaOf(state: SandboxState, url: string): { type: string; bytes: Buffer } {
  const path = new URL(url).pathname.toLowerCase();
  if (/\.(png|jpe?g|gif|webp)$/.test(path)) return { type: "image/png", bytes: screenshotPng(url, path) };
  if (path.endsWith(".pdf"))
    return { type: "application/pdf", bytes: Buffer.from(`%PDF-1.4\n% ${url}\n%%EOF\n`) };
  const page = fetchTarget(url, state.location, state.largePages);
  if (page.ok) return { type: "text/html", bytes: Buffer.from(page.html) };
  return { type: "application/octet-stream", bytes: Buffer.from(`media of ${url}\n`) };
}

async function submit(c: Ctx, state: SandboxState, delayMs: number) {
  const body = await parseBody(c, MediaRequestSchema);
  if (!body.ok) return { response: body.response };
  const { url } = body.data;
  const task = state.tasks.create({
    apiType: "media",
    input: body.data,
    url,
    delayMs,
    failure: state.failureFor(url, `${c.req.method} ${c.req.path}`, c.req.header(FAULT_HEADER)),
    statusCode: 200,
    callbackUrl: body.data.callback_url,
    driver: "vx6",
    data: () => {
      const media = mediaOf(state, url);
      const file = new URL(url).pathname.split("/").pop() || "index.html";
      return {
        content_type: media.type,
        size_bytes: media.bytes.length,
        file_name: file,
        download_url: `${state.location.url}/downloads/media/${task.id}`,
      };
    },
  });
  return { task };
}

/** Generation 2's submission: the task's own record (not the live one extract shows). */
const submittedRecord: Shape = (b: { task_id: string }, { state }) => {
  const task = state.tasks.get(b.task_id);
  return { status: "success", task: task ? state.tasks.record(task) : null };
};

export const MEDIA_ROUTES: Route[] = [
  {
    method: "POST",
    1: { path: "/v1/media" },
    2: { path: "/v2/media" },
    handle: async (c, { state }) => {
      const made = await submit(c, state, 0);
      return made.task ? state.tasks.result(made.task) : made.response;
    },
  },
  {
    method: "POST",
    1: { path: "/v1/media/async" },
    2: { path: "/v2/media/async", reply: submittedRecord },
    handle: async (c, { state }) => {
      const made = await submit(c, state, state.config.taskLatencyMs);
      return made.task ? { task_id: made.task.id } : made.response;
    },
  },
  {
    method: "GET",
    1: { path: "/downloads/media/:taskId" },
    handle: (c, { state }) => {
      const task = state.tasks.get(c.req.param("taskId") ?? "");
      if (task?.apiType !== "media" || state.tasks.state(task) !== "success") return notFound(c, "Media");
      const media = mediaOf(state, task.url);
      return c.body(new Uint8Array(media.bytes), 200, { "content-type": media.type });
    },
  },
];
