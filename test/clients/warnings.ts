/**
 * What a framework says while it connects and converts the tools: its console warnings and errors
 * (most frameworks log through the console; `test/setup/quiet-output.ts` routes direct stderr
 * writes there too) and Node process warnings. Around a tool call only warnings count (a
 * framework may log a tool's failure as an error, which the check of that call judges).
 */
export async function captureWarnings<T>(
  run: () => Promise<T>,
  { errors = true }: { errors?: boolean } = {},
): Promise<[T, string[]]> {
  const said: string[] = [];
  const { warn, error } = console;
  const onWarning = (w: Error) => said.push(`process warning: ${w.message}`);
  console.warn = (...args: unknown[]) => said.push(`warn: ${args.map(String).join(" ")}`);
  if (errors) console.error = (...args: unknown[]) => said.push(`error: ${args.map(String).join(" ")}`);
  process.on("warning", onWarning);
  try {
    return [await run(), said];
  } finally {
    console.warn = warn;
    console.error = error;
    process.off("warning", onWarning);
  }
}
