/** The stdio transport: JSON-RPC on stdin/stdout, nothing else ever on stdout. */
// First: before the SDK's message schemas are built.
import "./zod-jitless.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Config } from "../config.js";
import { startTelemetry } from "../telemetry/index.js";
import { AnsweringTransport } from "./answering-transport.js";
import { createServer } from "./create-server.js";
import { ProtocolGuard } from "./protocol-guard.js";
import { firstMessageEra } from "./stdio-era.js";
import { registryToolNames } from "./tool-names.js";
import { SERVER_NAME, VERSION } from "./version.js";

/** Serves until stdin ends or a signal arrives, then closes everything and runs `onClose`. */
export async function runStdio(config: Config, onClose?: () => Promise<void>): Promise<void> {
  // OpenTelemetry is loaded only when the OTEL_* exporter variables ask for it.
  const telemetry = await startTelemetry({
    settings: config.telemetry,
    service: { name: SERVER_NAME, version: VERSION },
    toolNames: registryToolNames,
  });
  const app = createServer({ config, observer: telemetry?.apiObserver });
  // The first message decides the revision for the process; a 2026-07-28 one loads the v2 SDK.
  const { era, input } = await firstMessageEra(process.stdin);
  if (era === "modern") {
    const { serveModernStdio } = await import("./modern/stdio.js");
    const served = serveModernStdio(config, app, input);
    input.resume();
    const end = async () => {
      await served.close().catch(() => {});
      await app.close().catch(() => {});
      await telemetry?.shutdown().catch(() => {});
      await onClose?.().catch(() => {});
      process.exit(0);
    };
    input.on("end", () => void end());
    process.on("SIGINT", () => void end());
    process.on("SIGTERM", () => void end());
    return;
  }
  // Knows the calls still unanswered: a SIGTERM answers them with an error before exiting.
  // Telemetry wraps inside it, so the answers `failPending` sends end their spans too.
  // The guard answers what the SDK would not: unreadable lines, bad params, a second initialize.
  const stdio = new ProtocolGuard(new StdioServerTransport(input, process.stdout), {
    answerUnreadable: true,
  });
  const transport = new AnsweringTransport(telemetry?.instrument(stdio, { network: "pipe" }) ?? stdio);
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await transport
      .failPending("The server is shutting down (SIGTERM) before this call finished: call again")
      .catch(() => {});
    await app.close().catch(() => {});
    await telemetry?.shutdown().catch(() => {});
    await onClose?.().catch(() => {});
    process.exit(code);
  };
  transport.onclose = () => void stop(0);
  // A stray rejection must not end the session: log it and keep serving.
  process.on("unhandledRejection", (reason) => {
    app.logger.error(`unhandled rejection: ${reason instanceof Error ? reason.message : String(reason)}`);
  });
  // The stream the transport reads: stdin may have ended already while the first line was awaited.
  input.on("end", () => void stop(0));
  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));
  await app.server.connect(transport);
  input.resume();
  app.logger.debug("stdio server ready", { tools: app.tools.size, sandbox: config.sandbox });
}
