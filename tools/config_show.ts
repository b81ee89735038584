/**
 * `config_show` — the merged effective configuration for the workspace root, with
 * its fingerprint and the files it came from: the document of `poly config show
 * --format json`. Network-free (git extends bases are read from the lock only).
 *
 * @module
 */
import { z } from "zod";
import { Identity } from "../lib/report/schema.ts";
import { configFor, configParam, formatParam } from "./_run.ts";
import { defineTool, READ_ONLY } from "./_tool.ts";

const Pattern = z.object({ pattern: z.string(), base: z.string() });

/** The document `config_show` returns. */
export const ConfigShowDocument = z.object({
  /** `1/<16 hex>`: the fingerprint reports carry in `configs`. */
  hash: z.string(),
  dir: z.string(),
  /** Files merged, farthest first. */
  sources: z.array(z.string()),
  excludes: z.array(Pattern),
  per_file_ignores: z.array(Pattern.extend({ codes: z.array(z.string()) })),
  rules_dirs: z.array(z.string()),
  /** The merged configuration with defaults applied. */
  config: z.record(z.string(), z.unknown()),
  /** The engines' own config files governing the root: files, effective options, and each key's file. */
  native: z.record(
    z.string(),
    z.object({
      files: z.array(z.string()),
      options: z.record(z.string(), z.unknown()),
      origins: z.record(z.string(), z.string()),
    }),
  ).optional(),
  poly: Identity,
});

/** The `config_show` tool. */
export const configShowTool = defineTool({
  name: "config_show",
  title: "Show the effective configuration",
  description:
    "The merged effective poly configuration for the workspace root (poly.toml cascade, extends bases, poly.local.toml), with its fingerprint (hash, the value reports list in configs) and source files. Read-only and network-free. Mirrors `poly config show --format json`.",
  level: "read",
  annotations: READ_ONLY,
  inputSchema: { config: configParam, format: formatParam },
  outputSchema: ConfigShowDocument,
  async handler(args, ctx) {
    const { isAbsolute, relative } = await import("node:path");
    const { openConfig, showDocument } = await import("../lib/config/mod.ts");
    const { identity } = await import("../lib/identity/mod.ts");
    const explicit = await configFor(ctx, args.config);
    const configs = await openConfig({ cwd: ctx.root, explicit });
    const config = await configs.forDir(ctx.root);
    const display = (path: string) => {
      const rel = relative(ctx.root, path);
      return rel === "" ? "." : rel.startsWith("..") || isAbsolute(rel) ? path : rel;
    };
    const doc = { ...showDocument(config, display), poly: await identity() };
    return { structured: doc, format: args.format ?? "json" };
  },
});
