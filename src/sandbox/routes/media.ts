/**
 * Media download (§12; generation 1 §18): POST /v{1,2}/media (waits for the download) and
 * /v{1,2}/media/async (a task to poll). The result's `data` is ours (the SDK types none):
 * `{content_type, size_bytes, file_name, download_url}`, the file itself served without a bearer
 * at /downloads/media/{task_id} like a bucket URL. An image URL (.png/.jpg/.gif/.webp) gives a
 * small PNG, a .pdf URL a few bytes of application/pdf, a demo-site page its HTML, anything else
 * a few bytes of application/octet-stream.
 * An unreachable host fails the task as extract does.
 */
import { Hono } from "hono";
import { MediaRequestSchema } from "../../api/schemas-v2.js";
import type { SandboxState } from "../context.js";
import { FAULT_HEADER } from "../faults.js";
import { type Ctx, notFound, parseBody, type SandboxEnv } from "../http.js";
import { screenshotPng } from "../screenshot.js";
import { fetchTarget } from "../site/fetch.js";

function mediaOf(state: SandboxState, url: string): { type: string; bytes: Buffer } {
  const path = new URL(url).pathname.toLowerCase();
  if (/\.(png|jpe?g|gif|webp)$/.test(path)) return { type: "image/png", bytes: screenshotPng(url, path) };
  if (path.endsWith(".pdf"))
    return { type: "application/pdf", bytes: Buffer.from(`%PDF-1.4\n% ${url}\n%%EOF\n`) };
  const page = fetchTarget(url, state.location);
  if (page.ok) return { type: "text/html", bytes: Buffer.from(page.html) };
  return { type: "application/octet-stream", bytes: Buffer.from(`media of ${url}\n`) };
}

export function mediaRoutes(state: SandboxState) {
  const r = new Hono<SandboxEnv>();

  const submit = async (c: Ctx, delayMs: number) => {
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
  };

  for (const gen of [2, 1] as const) {
    r.post(`/v${gen}/media`, async (c) => {
      const made = await submit(c, 0);
      return made.task ? c.json(state.tasks.result(made.task)) : made.response;
    });
    r.post(`/v${gen}/media/async`, async (c) => {
      const made = await submit(c, state.config.taskLatencyMs);
      if (!made.task) return made.response;
      return gen === 2
        ? c.json({ status: "success", task: state.tasks.record(made.task) })
        : c.json({ task_id: made.task.id });
    });
  }

  r.get("/downloads/media/:taskId", (c) => {
    const task = state.tasks.get(c.req.param("taskId"));
    if (!task || task.apiType !== "media" || state.tasks.state(task) !== "success")
      return notFound(c, "Media");
    const media = mediaOf(state, task.url);
    return c.body(new Uint8Array(media.bytes), 200, { "content-type": media.type });
  });
  return r;
}
