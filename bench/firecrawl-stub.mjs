// A stand-in for the Firecrawl API in a process of its own, for the peers bench: the Firecrawl MCP
// server's per-call overhead is its round trip over the raw request it makes, as ours is over the
// sandbox. `POST /v2/scrape` answers `{success, data: {markdown, metadata}}` with the markdown given
// (the sandbox's page, so both servers carry the same text); anything else (e.g. the server's
// action log) gets `{success: true}`. Run as a script it prints `{url}` as one line and stops when
// its stdin ends.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";

const SELF = fileURLToPath(import.meta.url);

/** Starts the stub; resolves to `{url, close()}`. */
export async function startFirecrawlStub(markdown) {
  const child = spawn(process.execPath, [SELF], {
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...process.env, BENCH_STUB_MARKDOWN: markdown },
  });
  child.stdout.setEncoding("utf8");
  let line = "";
  for await (const chunk of child.stdout) {
    line += chunk;
    if (line.includes("\n")) break;
  }
  const { url } = JSON.parse(line);
  return {
    url,
    close: () =>
      new Promise((resolve) => {
        child.once("exit", resolve);
        child.stdin.end();
      }),
  };
}

if (process.argv[1] === SELF) {
  const markdown = process.env.BENCH_STUB_MARKDOWN ?? "";
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const scrape = req.method === "POST" && req.url === "/v2/scrape";
      const url = scrape ? JSON.parse(body).url : undefined;
      const answer = scrape
        ? {
            success: true,
            data: { markdown, metadata: { title: "Demo", sourceURL: url, url, statusCode: 200 } },
          }
        : { success: true };
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(answer));
    });
  });
  server.listen(0, "127.0.0.1", () => {
    process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` })}\n`);
  });
  process.stdin.resume();
  process.stdin.on("end", () => server.close(() => process.exit(0)));
}
