// Preloaded (`node --require`) into a server by test/install/deferred-schemas.test.ts: appends a line to
// $SCHEMA_PROBE_OUT for each SDK schema the bundle builds (scripts/deferred-schema.mjs publishes
// each first build on a diagnostics channel): the schema's name, the bundle file that built it, and
// how many answers the server had written to stdout by then. Written synchronously, so every build
// before an answer is in the file when the client reads that answer.
const { subscribe } = require("node:diagnostics_channel");
const { appendFileSync } = require("node:fs");

const out = process.env.SCHEMA_PROBE_OUT;
let answers = 0;
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  for (const line of String(chunk).split("\n")) if (isAnswer(line)) answers++;
  return write(chunk, ...rest);
};
function isAnswer(line) {
  try {
    const message = JSON.parse(line);
    return "id" in message && ("result" in message || "error" in message);
  } catch {
    return false;
  }
}
subscribe("web-data-mcp:sdk-schema-built", ({ name }) => {
  // The innermost bundle file on the stack is the one whose copy of the SDK built it.
  const file = /[\\/]dist[\\/](\w+\.cjs):/.exec(new Error().stack ?? "")?.[1] ?? "?";
  appendFileSync(out, `${JSON.stringify({ name, file, answers })}\n`);
});
