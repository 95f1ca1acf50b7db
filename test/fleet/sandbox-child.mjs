// The sandbox in its own process for the fleet tests (an upstream API elsewhere, whose clock and
// rate limit are not slowed by the test's own clients). Prints {url, siteUrl}; reads one JSON
// command per line on stdin ({"configure": {...}}) and answers {"ok": true}; exits on stdin's end.
import { startSandbox } from "../../dist/sandbox/index.js";

const sandbox = await startSandbox({ key: process.argv[2], allowCallbacks: true, taskLatencyMs: 300 });
process.stdout.write(`${JSON.stringify({ url: sandbox.url, siteUrl: sandbox.siteUrl })}\n`);
let buffer = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  for (let at = buffer.indexOf("\n"); at >= 0; at = buffer.indexOf("\n")) {
    const command = JSON.parse(buffer.slice(0, at));
    buffer = buffer.slice(at + 1);
    if (command.configure) sandbox.configure(command.configure);
    process.stdout.write(`${JSON.stringify({ ok: true })}\n`);
  }
});
process.stdin.on("end", () => sandbox.close().then(() => process.exit(0)));
