/**
 * The identity block in every tool's result (README: "every result carries both"):
 * {@link withIdentity} gives a tool whose document does not already carry `poly`
 * (the report tools and a few others build theirs) an output schema with `poly`
 * and a handler that adds it, so `structuredContent` and `_meta.poly` agree for the
 * fleet, gateway and HTTP tools as they do for the lint tools.
 *
 * @module
 */
import { z } from "zod";
import type { ToolDef } from "./_tool.ts";
import { Identity } from "../lib/report/schema.ts";

/** `def` with `poly` in its output schema and its documents (unchanged when it has them already). */
export function withIdentity(def: ToolDef): ToolDef {
  const schema = def.outputSchema;
  if (!(schema instanceof z.ZodObject) || "poly" in schema.shape) return def;
  return {
    ...def,
    outputSchema: schema.extend({ poly: Identity }),
    async handler(args, ctx) {
      const out = await def.handler(args, ctx);
      const doc = out.structured as Record<string, unknown>;
      if (doc && typeof doc === "object" && !("poly" in doc)) {
        const { identity } = await import("../lib/identity/mod.ts");
        return { ...out, structured: { ...doc, poly: await identity() } };
      }
      return out;
    },
  };
}
