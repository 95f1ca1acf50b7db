/**
 * `manage_template`: change (`PATCH /v2/extract/templates/{name}`, JSON Patch, e.g. the published
 * version) or delete (`DELETE …`) an extract template. Generation 2 only (generation 1 has no
 * such routes). Afterwards the agent catalog refreshes, so list_agents and the dedicated agent
 * tools follow (clients get `tools/list_changed` when the listed tools change).
 */
import { z } from "zod";
import { createOnce, refreshCatalog } from "./creation.js";
import { ToolError } from "./errors.js";
import { defineTool } from "./tool.js";

const op = () =>
  z.object({
    op: z.enum(["add", "remove", "replace", "move", "copy", "test"]).describe("JSON Patch op"),
    path: z.string().describe("e.g. /published_version_id"),
    value: z.unknown().optional().describe("New value"),
    from: z.string().optional().describe("Source path (move, copy)"),
  });

export const manageTemplate = defineTool({
  name: "manage_template",
  title: "Update or delete a template",
  description:
    "Update an extract template (JSON Patch, or published_version_id to publish a version from run_template's listing) or delete it. API generation 2 only.",
  toolset: "manage",
  routes: ["updateTemplate", "deleteTemplate"],
  examples: [
    {
      action: "update",
      template: "ecommerce_product",
      patch: [{ op: "replace", path: "/display_name", value: "Product page" }],
    },
  ],
  input: () => ({
    action: z.enum(["update", "delete"]).describe("What to do"),
    template: z.string().min(1).describe("Template name"),
    published_version_id: z.string().min(1).optional().describe("update: version to publish"),
    patch: z.array(op()).min(1).max(50).optional().describe("update: JSON Patch"),
  }),
  output: () => ({
    template: z.string(),
    action: z.string(),
    published_version_id: z.string().optional(),
    note: z.string().optional(),
  }),
  readOnly: false,
  idempotent: true,
  destructive: true,
  async handler(args, ctx) {
    const opts = { signal: ctx.signal };
    let published: string | undefined;
    if (args.action === "delete") {
      await ctx.client.deleteTemplate(args.template, opts);
    } else {
      const patch = [
        ...(args.published_version_id
          ? [{ op: "replace" as const, path: "/published_version_id", value: args.published_version_id }]
          : []),
        ...(args.patch ?? []),
      ];
      if (patch.length === 0)
        throw new ToolError("invalid_argument", ["patch or published_version_id: what to change"].join(" "));
      const record = await createOnce("template update", "run_template's version listing", () =>
        ctx.client.updateTemplate(args.template, patch, opts),
      );
      published = record.published_version_id;
    }
    const note = await refreshCatalog(ctx.services);
    const what =
      args.action === "delete" ? "deleted" : `updated${published ? ` (published version ${published})` : ""}`;
    return {
      structured: {
        template: args.template,
        action: args.action,
        ...(published ? { published_version_id: published } : {}),
        ...(note ? { note } : {}),
      },
      text: [`Template ${args.template} ${what}.`, ...(note ? [note] : [])].join("\n"),
    };
  },
});
