/**
 * `download_media`: a file (image, PDF, page…) fetched by the service (`POST /v2/media/async`,
 * generation 1 `/v1/media/async`, then the task), returned as an image when it is one within
 * `max_bytes`, as text when it is text, else as its download link with type and size.
 */
import { z } from "zod";
import { createOnce } from "./creation.js";
import { ToolError } from "./errors.js";
import { urlArg } from "./extract-page.js";
import { mediaUri } from "./resources.js";
import { longToolShape, pendingResult, plural } from "./result.js";
import { defineTool, type ToolContext } from "./tool.js";

const IMAGE = /^image\/(png|jpeg|gif|webp)\b/;
const TEXT = /^(text\/|application\/(json|xml))/;

export const downloadMedia = defineTool({
  name: "download_media",
  title: "Download a media file",
  description:
    "Download a file (image, PDF, video…): an image comes back as an image, text as text, anything else as a temporary link with its type and size.",
  toolset: "media",
  routes: ["mediaAsync"],
  longRunning: true,
  examples: [{ url: "https://cdn.example.com/boots.png" }],
  input: () => ({
    url: urlArg().describe("File URL"),
    expected_mime_types: z.array(z.string()).max(20).optional().describe("e.g. image/png"),
    country: z.string().optional().describe("Fetch from this country, e.g. US"),
    max_bytes: z
      .number()
      .int()
      .min(1024)
      .max(5_000_000)
      .default(1_000_000)
      .describe("Largest file returned inline"),
  }),
  output: () => ({
    ...longToolShape(),
    task_id: z.string(),
    content_type: z.string().optional(),
    size_bytes: z.number().optional(),
    download_url: z.string().optional(),
    inline: z
      .enum(["image", "text", "link"])
      .optional()
      .describe("How the file came back: an image item, the text (in the text content), or a resource link"),
    chars: z.number().optional().describe("Characters of the file's text in the text content"),
  }),
  readOnly: true,
  async handler(args, ctx) {
    const { max_bytes, ...body } = args;
    // The download task is a submission like any async task: sent once (the spec says nothing of
    // billing for media; the client never re-sends a submission that may have been accepted).
    const { task_id } = await createOnce(
      "media download task",
      "get_task {} (recent tasks, newest first)",
      () => ctx.client.mediaAsync(body, { signal: ctx.signal }),
    );
    const outcome = await ctx.wait({ kind: "task", id: task_id });
    if (outcome.status === "pending") return pendingResult(outcome);
    if (outcome.status === "failed")
      throw new ToolError("task_failed", `The download failed: ${outcome.error ?? "no reason given"}.`, {
        id: task_id,
      });
    const result = await ctx.client.getTaskResults(task_id, { signal: ctx.signal });
    return deliver(result.data as MediaFile, { task_id, url: args.url, max_bytes }, ctx);
  },
});

/** What the finished task says of the file. */
interface MediaFile {
  content_type?: string;
  size_bytes?: number;
  download_url?: string;
  file_name?: string;
}

/** The call the file answers: its task, the URL asked for and the inline limit. */
interface MediaCall {
  task_id: string;
  url: string;
  max_bytes: number;
}

/** The file as an image or as text when it is one within `max_bytes`, else as a link. */
async function deliver(data: MediaFile, call: MediaCall, ctx: ToolContext) {
  const base = doneFacts(call.task_id, data);
  const about = `${data.file_name ?? call.url} (${data.content_type ?? "unknown type"}, ${data.size_bytes !== undefined ? plural(data.size_bytes, "byte") : "size unknown"})`;
  const small = data.size_bytes !== undefined && data.size_bytes <= call.max_bytes;
  const type = data.content_type ?? "";
  if (!data.download_url || !small || !(IMAGE.test(type) || TEXT.test(type))) {
    return asLink(data, call, { base, about, small });
  }
  const file = await ctx.client.download(data.download_url, call.max_bytes, { signal: ctx.signal });
  if (IMAGE.test(file.contentType)) {
    return {
      structured: { ...base, inline: "image" as const },
      text: `${about}, shown below.`,
      images: [{ data: file.bytes.toString("base64"), mimeType: file.contentType.split(";")[0] }],
    };
  }
  const text = file.bytes.toString("utf8");
  return {
    structured: { ...base, inline: "text" as const, chars: text.length },
    text: `${about}:\n${text}`,
  };
}

/** The structured answer's common part: the task and what is known of the file. */
function doneFacts(task_id: string, data: MediaFile) {
  return {
    status: "done" as const,
    task_id,
    ...(data.content_type ? { content_type: data.content_type } : {}),
    ...(data.size_bytes !== undefined ? { size_bytes: data.size_bytes } : {}),
    ...(data.download_url ? { download_url: data.download_url } : {}),
  };
}

/** A file not inlined: its download URL, and a resource link to it when there is one. */
function asLink(
  data: MediaFile,
  call: MediaCall,
  shown: { base: ReturnType<typeof doneFacts>; about: string; small: boolean },
) {
  const { base, about, small } = shown;
  const link = data.download_url && {
    uri: mediaUri(call.task_id),
    name: data.file_name ?? call.url,
    description: `File ${about}`,
    mimeType: data.content_type?.split(";")[0] ?? "application/octet-stream",
  };
  return {
    structured: { ...base, inline: "link" as const },
    text: `${about}: ${data.download_url ?? "no download URL given"}${small ? "" : ` (over max_bytes=${call.max_bytes}: not inlined)`}${link ? `; read it as ${link.uri}` : ""}`,
    ...(link ? { links: [link] } : {}),
  };
}
