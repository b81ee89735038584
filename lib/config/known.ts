/**
 * Names poly.toml keys are checked against: the languages poly recognises and the
 * engine and tool ids a `[lint.<lang>.<tool>]`, `[fmt.<lang>.<tool>]` or
 * `[tools.<name>]` table may name. A typo in one of these is an "unknown key"
 * error with a suggestion, never a silently ignored table.
 *
 * @module
 */
import { ENGINE_IDS as REGISTERED_IDS } from "../engines/registry.ts";
import type { Language } from "../engines/types.ts";

/** Every language a config table may name (the `Language` union without "unknown"). */
export const LANGUAGES = [
  "astro",
  "c",
  "cpp",
  "csharp",
  "css",
  "dockerfile",
  "go",
  "graphql",
  "html",
  "java",
  "javascript",
  "json",
  "kotlin",
  "lua",
  "markdown",
  "php",
  "protobuf",
  "python",
  "ruby",
  "rust",
  "scala",
  "shell",
  "sql",
  "svelte",
  "svg",
  "swift",
  "toml",
  "typescript",
  "vue",
  "yaml",
  "zig",
] as const satisfies readonly Exclude<Language, "unknown">[];

/** A language a config table may name. */
export type ConfigLanguage = typeof LANGUAGES[number];

/**
 * Ids a `[lint.<lang>.<tool>]` or `[fmt.<lang>.<tool>]` table accepted before
 * they had (or after they lost) an engine: a poly.toml naming them still loads,
 * and nothing reads those tables.
 */
const FORMER_ENGINE_IDS = ["clippy", "taplo"] as const;

/**
 * Ids accepted as `<tool>` in `[lint.<lang>.<tool>]` and `[fmt.<lang>.<tool>]`:
 * every engine the registry registers (lib/engines/registry.ts), plus
 * {@link FORMER_ENGINE_IDS}, sorted.
 */
export const ENGINE_IDS: readonly string[] = [...new Set([...REGISTERED_IDS, ...FORMER_ENGINE_IDS])].sort();

/** Whole-project tools (see `lib/workspace`) that `[tools.<name>]` may also name. */
export const WORKSPACE_TOOL_IDS = ["cargo-deny", "cargo-machete", "cargo-sort", "clippy", "go-vet"] as const;

/** Every name `[tools.<name>]` accepts: engine ids and whole-project tools. */
export const TOOL_NAMES: readonly string[] = [...new Set([...ENGINE_IDS, ...WORKSPACE_TOOL_IDS])].sort();
