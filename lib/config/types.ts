/**
 * Types shared between config loading and its users. The schema itself is in
 * `schema.ts`; loading (cascade, `poly.local.toml`, `extends`) in `load.ts`.
 *
 * @module
 */
import type { Listings } from "../fs/listing.ts";
import type { PolyConfig } from "./schema.ts";
import type { NativeLayer } from "./native/types.ts";

/** A gitignore-style pattern and the absolute directory it is relative to. */
export interface PathPattern {
  /** As written in `[discovery] exclude` (a leading `/` anchors it at `base`). */
  pattern: string;
  /** Absolute directory: the directory of the poly.toml that wrote it (for an extends base: of the file extending it). */
  base: string;
}

/** One `[per-file-ignores]` entry with the directory its glob is relative to. */
export interface PerFileIgnore extends PathPattern {
  /** Rule codes (or prefixes) ignored in matching files. */
  codes: string[];
}

/** One effective configuration: the merge of every file that governs a directory. */
export interface ResolvedConfig {
  /** `1/<16 hex>`: SHA-256 over the canonical JSON of `data` (and excludes relative to `dir`), format version 1. */
  hash: string;
  /** Files it was assembled from, farthest first (extends bases, parents, poly.toml, poly.local.toml). */
  sources: string[];
  /** The directory of the nearest config file (or the anchor when there is none). */
  dir: string;
  /**
   * The nearest poly file (`poly.local.toml` before `poly.toml` in `dir`): the file a message about the merged
   * configuration names. Undefined when no poly file governs (`sources` may still list an engine's own files).
   */
  file?: string;
  /**
   * The validated, merged configuration with defaults applied. `extends` is resolved
   * away; `discovery.exclude` lists the accumulated patterns (use `excludes` for their bases).
   */
  data: PolyConfig;
  /** Accumulated `[discovery] exclude` patterns, farthest first, each with the directory it is relative to. */
  excludes: PathPattern[];
  /** `[per-file-ignores]` entries, farthest first, each with the directory its glob is relative to. */
  perFileIgnores: PerFileIgnore[];
  /**
   * `[rules] dirs` as absolute paths, resolved against the directory of the config that set them
   * (the default `.poly/rules` resolves against the top of the cascade, or the anchor).
   */
  rulesDirs: string[];
  /**
   * The engines' own config files governing the directory (`ruff.toml`, `biome.json`, ...), by engine id
   * (lib/config/native/). Their paths are also in `sources`, their hashes in `hash`.
   */
  native?: NativeLayer;
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
  /**
   * The directory listings the configuration's native readers took (each directory once):
   * a discovery of the same tree shares them (lib/fs/listing.ts).
   */
  readonly listings: Listings;
}

/** Options for opening a ConfigSet. */
export interface OpenConfigOptions {
  /** Where the run starts (usually the current directory). */
  cwd: string;
  /** `--config PATH`: use exactly this file for every directory (no cascade), plus its extends and poly.local.toml beside it. */
  explicit?: string;
}
