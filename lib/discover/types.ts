/**
 * Types of discovery: what a run asks for and the records it gets back.
 *
 * @module
 */
import type { Listings } from "../fs/listing.ts";
import type { Language } from "../engines/types.ts";

/** One `[discovery] exclude` pattern with the absolute directory it is relative to. */
export interface ExcludePattern {
  /** A gitignore-syntax pattern: a leading `/` anchors it to `base`; an unanchored one matches at any depth. */
  pattern: string;
  /** Absolute directory the pattern is relative to (the directory of the config file that declared it). */
  base: string;
}

/** The part of the effective configuration discovery needs, for one directory. */
export interface DiscoveryConfig {
  /** Accumulated `[discovery] exclude` patterns, farthest config first. */
  excludes: ExcludePattern[];
  /** `[discovery] force_exclude`: excludes and .gitignore also apply to paths named explicitly. */
  forceExclude: boolean;
}

/** Options for {@link discover}. */
export interface DiscoverOptions {
  /** Directory reports are relative to; relative `paths` resolve against it. */
  cwd: string;
  /** Files or directories to consider; empty means `cwd`. */
  paths: string[];
  /** Extra gitignore-style excludes from the command line or an MCP call, relative to `cwd`. */
  exclude?: string[];
  /** The discovery settings governing an absolute directory (cached by the caller). Default: none. */
  configFor?: (absDir: string) => Promise<DiscoveryConfig>;
  /**
   * Also return walked files whose language is unknown (default false: they are
   * left out silently; explicitly named unknown files are always returned).
   */
  includeUnknown?: boolean;
  /** Stops the walk; discover() then rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Called once per language, as soon as the walk finds its first file (the run
   * loads that language's engines while the walk waits on the file system).
   */
  onLanguage?: (language: Language) => void;
  /** The run's directory listings, shared with its configuration (default: the walk's own). */
  listings?: Listings;
}

/** A file to process. */
export interface FoundFile {
  kind: "file";
  /** Absolute path (symbolic links are not resolved). */
  path: string;
  /** Path relative to `cwd` with `/` separators; a path outside `cwd` is kept as it was given. */
  relPath: string;
  language: Language;
  /** Named on the command line (or in the MCP call) rather than found by walking a directory. */
  explicit: boolean;
  /** Reached through a symbolic link: the file's real path is not `path`. */
  linked?: true;
}

/** A path discovery declined, with a reason a person understands. */
export interface SkippedPath {
  kind: "skip";
  path: string;
  relPath: string;
  skip: string;
}

/** A path discovery could not handle (does not exist, unreadable directory). */
export interface ErroredPath {
  kind: "error";
  path: string;
  relPath: string;
  error: string;
}

/** One discovery record. */
export type Candidate = FoundFile | SkippedPath | ErroredPath;
