/**
 * Discovery: paths → files. `.gitignore` at every level, `.git/info/exclude`,
 * `[discovery] exclude`, language detection, binary/size/UTF-8/template checks.
 *
 * @example
 * ```ts
 * import { discover, readCandidate } from "./mod.ts";
 * for (const record of await discover({ cwd: Deno.cwd(), paths: [] })) {
 *   if (record.kind !== "file") continue;
 *   const read = await readCandidate(record.path, 2 * 1024 * 1024, { language: record.language });
 * }
 * ```
 *
 * @module
 */
export type {
  Candidate,
  DiscoverOptions,
  DiscoveryConfig,
  ErroredPath,
  ExcludePattern,
  FoundFile,
  SkippedPath,
} from "./types.ts";
export { compare, discover, displayPath } from "./walk.ts";
export { detectLanguage, EXTENSIONS, FILE_NAMES, INTERPRETERS, languageOfShebang, needsShebang } from "./language.ts";
export type { Classified, ReadOptions, ReadOutcome } from "./content.ts";
export {
  BINARY_SNIFF_BYTES,
  classifyContent,
  firstInvalidUtf8,
  formatBytes,
  readCandidate,
  readError,
  sizeReason,
} from "./content.ts";
export { detectTemplate } from "../engines/templates.ts";
