// The sandbox in a process of its own, for benches that compare a call through the MCP server
// with the raw API call it makes: a real API is as far from the bench as from the server, so the
// sandbox must not share the bench's process (a raw call would then never cross a process
// boundary while the server's call always does).
// Run as a script it starts the sandbox and prints `{url, siteUrl}` as one line; it stops when its
// stdin ends.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";

const SELF = fileURLToPath(import.meta.url);

/**
 * Starts the sandbox process; resolves to `{url, siteUrl, close()}`. `options`: more
 * `startSandbox` options (plain JSON, e.g. `{crawlPageMs: 1000}`).
 */
export async function startSandboxProcess({ key, rateLimit = 1_000_000, options = {} }) {
  const child = spawn(process.execPath, [SELF, key, String(rateLimit), JSON.stringify(options)], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  child.stdout.setEncoding("utf8");
  let line = "";
  for await (const chunk of child.stdout) {
    line += chunk;
    if (line.includes("\n")) break;
  }
  const { url, siteUrl } = JSON.parse(line);
  return {
    url,
    siteUrl,
    close: async () => {
      child.stdin.end();
      if (child.exitCode === null) await once(child, "exit");
    },
  };
}

if (process.argv[1] === SELF) {
  const { startSandbox } = await import("../dist/sandbox/index.js");
  const [key, rateLimit, options] = process.argv.slice(2);
  const sandbox = await startSandbox({ ...JSON.parse(options ?? "{}"), key, rateLimit: Number(rateLimit) });
  process.stdout.write(`${JSON.stringify({ url: sandbox.url, siteUrl: sandbox.siteUrl })}\n`);
  process.stdin.resume();
  process.stdin.on("end", () => void sandbox.close().then(() => process.exit(0)));
}
