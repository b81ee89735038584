/**
 * The poly.toml schema. Every table is strict: an unknown key is an error with a
 * "did you mean" suggestion, never silently ignored.
 *
 * Sections owned by other concerns (fleet, gateway, serve) are declared in their
 * own files and composed here, so each concern documents its keys where it uses them.
 *
 * @module
 */
import { z } from "zod";

/** Severity override for a single rule: `off` disables it. */
export const RuleLevel = z.enum(["off", "hint", "info", "warning", "error"]);

/** `[lint.<lang>.<tool>.rules.<id>]`: per-rule settings. */
export const RuleTable = z.strictObject({
  level: RuleLevel.optional(),
}).catchall(z.unknown());

/** `[lint.<lang>.<tool>]` and `[fmt.<lang>.<tool>]`: uniform keys plus engine-specific ones. */
export const ToolTable = z.object({
  enabled: z.boolean().optional(),
  select: z.array(z.string()).optional(),
  ignore: z.array(z.string()).optional(),
  rules: z.record(z.string(), RuleTable).optional(),
}).catchall(z.unknown());

/** `[defaults]`: knobs every engine honours where its upstream has them. */
export const Defaults = z.strictObject({
  line_length: z.number().int().min(1).max(1000).default(120),
  line_ending: z.enum(["lf", "crlf", "auto"]).default("lf"),
  final_newline: z.boolean().default(true),
  trim_trailing_whitespace: z.boolean().default(true),
  indent_width: z.number().int().min(1).max(16).optional(),
});

/** A glob or a list of globs. */
const Globs = z.union([z.string(), z.array(z.string())]).transform((v) => (typeof v === "string" ? [v] : v));

/** `[discovery]`: which files a run considers. */
export const Discovery = z.strictObject({
  exclude: Globs.default([]),
  /** Apply excludes even to paths named explicitly on the command line. */
  force_exclude: z.boolean().default(false),
  /** "extend" (default) adds to the inherited excludes; "replace" starts over. */
  exclude_mode: z.enum(["extend", "replace"]).default("extend"),
  /** Files larger than this many bytes are skipped with a reason. */
  max_file_size: z.number().int().min(1).default(2 * 1024 * 1024),
});

/** A git-hosted extends base: fetched only by `poly config update`, pinned in poly-config.lock. */
export const GitBase = z.strictObject({
  git: z.string(),
  revision: z.string().optional(),
  file: z.string().default("poly.toml"),
});

/** The whole file. */
export const PolyConfigSchema = z.strictObject({
  extends: z.array(z.union([z.string(), GitBase])).optional(),
  defaults: Defaults.default(Defaults.parse({})),
  discovery: Discovery.default(Discovery.parse({})),
  lint: z.record(z.string(), z.record(z.string(), ToolTable)).default({}),
  fmt: z.record(z.string(), z.record(z.string(), ToolTable)).default({}),
  "per-file-ignores": z.record(z.string(), z.array(z.string())).default({}),
  rules: z.strictObject({
    dirs: z.array(z.string()).default([".poly/rules"]),
  }).catchall(z.unknown()).default({ dirs: [".poly/rules"] }),
  tools: z.record(z.string(), z.strictObject({ enabled: z.boolean().default(true), languages: z.array(z.string()).optional() })).default({}),
  cache: z.strictObject({ enabled: z.boolean().default(true), dir: z.string().optional() }).default({ enabled: true }),
  workspace: z.strictObject({
    root: z.boolean().default(false),
    jobs: z.record(z.string(), z.unknown()).default({}),
  }).catchall(z.unknown()).default({ root: false, jobs: {} }),
  // Sections owned by other concerns: each is validated by its own module.
  fleet: z.record(z.string(), z.unknown()).optional(),
  gateway: z.record(z.string(), z.unknown()).optional(),
  serve: z.record(z.string(), z.unknown()).optional(),
});

/** The validated configuration with defaults applied. */
export type PolyConfig = z.infer<typeof PolyConfigSchema>;
