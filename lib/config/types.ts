/**
 * Types shared between config loading and its users. The schema itself is in
 * `schema.ts`; loading (cascade, `poly.local.toml`, `extends`) in `load.ts`.
 *
 * @module
 */
import type { PolyConfig } from "./schema.ts";

/** One effective configuration: the merge of every file that governs a directory. */
export interface ResolvedConfig {
  /** `1/<16 hex>`: blake3 over the canonical JSON of `data`, format version 1. */
  hash: string;
  /** Files it was assembled from, farthest first (extends bases, parents, poly.toml, poly.local.toml). */
  sources: string[];
  /** The directory of the nearest config file (or the anchor when there is none). */
  dir: string;
  /** The validated, merged configuration with defaults applied. */
  data: PolyConfig;
}

/**
 * Answers "which configuration governs this path" for a run. Cached per directory;
 * never touches the network.
 */
export interface ConfigSet {
  /** The repository anchor: nearest `.git` above the start directory, else the top-most `poly.toml`, else the start directory. */
  readonly anchor: string;
  /** The configuration governing the directory `absDir`. Throws ConfigError on an invalid file. */
  forDir(absDir: string): Promise<ResolvedConfig>;
}

/** Options for opening a ConfigSet. */
export interface OpenConfigOptions {
  /** Where the run starts (usually the current directory). */
  cwd: string;
  /** `--config PATH`: use exactly this file for every directory (no cascade), plus its extends and poly.local.toml beside it. */
  explicit?: string;
}
