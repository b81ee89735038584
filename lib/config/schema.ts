/**
 * The poly.toml schema. Every table is strict: an unknown key is an error with a
 * "did you mean" suggestion, never silently ignored. `[lint.<lang>.<tool>]` and
 * `[fmt.<lang>.<tool>]` accept only known languages and engine ids, but stay open
 * inside (engine-specific keys are validated by the engine).
 *
 * Sections owned by other concerns (`[fleet]`, `[gateway]`, `[rules]`,
 * `[workspace.jobs]`, ...) are declared in their own modules and composed here,
 * so each concern documents its keys where it uses them.
 *
 * @module
 */
import { z } from "zod";
import { FleetSection } from "../fleet/config.ts";
import { ENGINE_IDS, LANGUAGES, TOOL_NAMES } from "./known.ts";
import { GatewayConfigSchema } from "../gateway/config.ts";
import { ServeSection } from "../access/config.ts";
import { WorkspaceJobs } from "../workspace/config.ts";
import { RulesTable } from "../rules/config.ts";

/** Severity override for a single rule: `off` disables it. */
export const RuleLevel = z.enum(["off", "hint", "info", "warning", "error"]);

/** `[lint.<lang>.<tool>.rules.<id>]`: per-rule settings (`level`, plus engine-specific keys). */
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

/** The validated value of one `[lint.<lang>.<tool>]` table. */
export type ToolTableValue = z.infer<typeof ToolTable>;

/** `lint` and `fmt`: language → engine id → tool table. */
export type LanguageTools = Record<string, Record<string, ToolTableValue>>;

const languageTools = z.partialRecord(
  z.enum(LANGUAGES),
  z.partialRecord(z.enum(ENGINE_IDS as [string, ...string[]]), ToolTable),
)
  .default({}) as unknown as z.ZodType<LanguageTools>;

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
  /** gitignore syntax; a leading `/` anchors to the config's directory; unanchored globs match at any depth. */
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
  git: z.string().min(1),
  revision: z.string().min(1).optional(),
  file: z.string().min(1).default("poly.toml"),
});

/** One `extends` entry: a path relative to the file, or a git base. */
export const ExtendsEntry = z.union([z.string().min(1), GitBase]);

/** `[rules]`: user ast-grep rule dirs (relative to the config's directory), `builtin`, per-rule `overrides` (see lib/rules/config.ts). */
export const RulesSection = RulesTable;

/** `[tools.<name>]`: switch a tool off, or limit it to some languages. */
export const ToolSwitch = z.strictObject({
  enabled: z.boolean().default(true),
  /** `false`: the engine's own config files (ruff.toml, biome.json, .prettierrc, .oxfmtrc.json) are not read. */
  native_config: z.boolean().optional(),
  languages: z.array(z.enum(LANGUAGES)).optional(),
});

/** `[cache]`: the result cache. */
export const CacheSection = z.strictObject({
  enabled: z.boolean().default(true),
  /** Overrides the cache root (default `$POLY_CACHE_HOME` or the platform cache dir). */
  dir: z.string().optional(),
  /** A Turborepo remote-cache server shared by runners (`POLY_REMOTE_CACHE_URL` overrides; lib/cache/remote). */
  remote: z.string().regex(/^https?:\/\/\S+$/, "must be an http:// or https:// URL").optional(),
  /** The team (`team_…` → teamId) or slug on that server (`POLY_REMOTE_CACHE_TEAM` overrides). */
  remote_team: z.string().min(1).optional(),
});

/** `[workspace]`: `root = true` stops the upward cascade; `jobs` are inline whole-project jobs. */
export const WorkspaceSection = z.strictObject({
  root: z.boolean().default(false),
  jobs: WorkspaceJobs.default({}),
});

/** The whole file. */
export const PolyConfigSchema = z.strictObject({
  extends: z.union([z.string().min(1).transform((s) => [s]), z.array(ExtendsEntry)]).optional(),
  defaults: Defaults.default(Defaults.parse({})),
  discovery: Discovery.default(Discovery.parse({})),
  lint: languageTools,
  fmt: languageTools,
  "per-file-ignores": z.record(z.string(), z.array(z.string())).default({}),
  rules: RulesSection.default(RulesSection.parse({})),
  tools: z.partialRecord(z.enum(TOOL_NAMES as [string, ...string[]]), ToolSwitch).default({}) as unknown as z.ZodType<
    Record<string, z.infer<typeof ToolSwitch>>
  >,
  cache: CacheSection.default(CacheSection.parse({})),
  workspace: WorkspaceSection.default(WorkspaceSection.parse({})),
  // Sections owned by other concerns: each is validated by its own module.
  fleet: FleetSection.optional(),
  gateway: GatewayConfigSchema.optional(),
  serve: ServeSection.optional(),
});

/** The validated configuration with defaults applied. */
export type PolyConfig = z.infer<typeof PolyConfigSchema>;

/** One `extends` entry after validation. */
export type ExtendsValue = z.infer<typeof ExtendsEntry>;

/** A git base after validation. */
export type GitBaseValue = z.infer<typeof GitBase>;
