/**
 * poly.toml: the schema, loading (cascade, `poly.local.toml`, `extends`),
 * validation with positioned messages, fingerprints, the lock for git bases,
 * and what the `poly config` commands print.
 *
 * @example
 * ```ts
 * import { openConfig } from "./mod.ts";
 * const configs = await openConfig({ cwd: Deno.cwd() });
 * const { hash, data, excludes } = await configs.forDir(Deno.cwd());
 * ```
 *
 * @module
 */
export { openConfig } from "./load.ts";
export { updateConfigLock } from "./update.ts";
export type { LockUpdate, UpdateOptions } from "./update.ts";
export { type ConfigFile, readConfigFile } from "./parse.ts";
export { parseConfigText } from "./_schemas.ts";
export { fingerprint, FINGERPRINT_VERSION, fingerprintJson } from "./fingerprint.ts";
export { deepMerge } from "./merge.ts";
export { checkoutDir, LOCK_FILE, type LockEntry, renderLock } from "./lock.ts";
export { CONFIG_FILE, LOCAL_CONFIG_FILE, showPath } from "./_walk.ts";
export { type ConfigShowDocument, renderJson, renderToml, showDocument } from "./render.ts";
export { STARTER_CONFIG } from "./starter.ts";
export { type ConfigLanguage, ENGINE_IDS, LANGUAGES, TOOL_NAMES, WORKSPACE_TOOL_IDS } from "./known.ts";
export { suggest } from "./_suggest.ts";
export {
  type ExtendsValue,
  type GitBaseValue,
  type LanguageTools,
  type PolyConfig,
  PolyConfigSchema,
  RuleLevel,
  ToolTable,
  type ToolTableValue,
} from "./schema.ts";
export type { ConfigSet, OpenConfigOptions, PathPattern, PerFileIgnore, ResolvedConfig } from "./types.ts";
