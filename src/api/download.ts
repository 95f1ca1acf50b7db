/**
 * Reading a file at a pre-signed URL the API handed out (media, artifacts): a plain GET with no
 * credential (the URL is its own authorisation and may be another host), at most `maxBytes`
 * read, the rest left unread. Failures become `ApiError`s like every other call.
 */
import type { Dispatcher } from "undici";
import { linkSignals } from "./abort.js";
import { ApiError } from "./errors.js";

export interface Downloaded {
  contentType: string;
  bytes: Buffer;
  /** The file is longer than what was read. */
  truncated: boolean;
}

export async function downloadFile(
  dispatcher: Dispatcher,
  raw: string,
  maxBytes: number,
  opts: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<Downloaded> {
  const url = downloadUrl(raw);
  const linked = linkSignals([opts.signal], { ms: opts.timeoutMs ?? 30_000 });
  const label = `GET ${url.host}${url.pathname}`;
  try {
    const res = await dispatcher.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: "GET",
      signal: linked.signal,
    });
    if (res.statusCode < 200 || res.statusCode >= 300) {
      await res.body.dump().catch(() => {});
      throw statusError(res.statusCode, label);
    }
    const { bytes, truncated } = await readUpTo(res.body, maxBytes);
    res.body.destroy();
    const type = res.headers["content-type"];
    return {
      contentType: (Array.isArray(type) ? type[0] : type) ?? "application/octet-stream",
      bytes,
      truncated,
    };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const code = linked.signal.aborted ? (opts.signal?.aborted ? "aborted" : "timeout") : "network_error";
    throw new ApiError({ code, message: `${label} failed` });
  } finally {
    linked.dispose();
  }
}

/** The URL the service handed out, refused unless it is an http(s) URL. */
function downloadUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ApiError({
      code: "invalid_response",
      message: "the download URL the service gave is not a URL",
    });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new ApiError({ code: "invalid_response", message: "the download URL is not http(s)" });
  return url;
}

/** A non-2xx answer: a 403 or 404 most likely means the URL expired. */
function statusError(status: number, label: string): ApiError {
  return new ApiError({
    code: status === 403 || status === 404 ? "not_found" : "upstream_error",
    status,
    message: `${label} answered ${status} (a download URL expires: ask for a new one)`,
  });
}

/** The body's first `maxBytes` bytes, and whether there was more (left unread). */
async function readUpTo(body: AsyncIterable<Uint8Array>, maxBytes: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buf = Buffer.from(chunk);
    if (size + buf.length > maxBytes) {
      chunks.push(buf.subarray(0, maxBytes - size));
      return { bytes: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(buf);
    size += buf.length;
  }
  return { bytes: Buffer.concat(chunks), truncated: false };
}
