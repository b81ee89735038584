/**
 * Helpers every engine uses to read the uniform keys of its poly.toml table:
 * `select`, `ignore` and per-rule `rules.<id>.level`; and whether the repository's
 * own file governs the engine ({@link governingNative}).
 *
 * @module
 */
import type { Diagnostic, Severity } from "../report/schema.ts";
import type { NativeEngineConfig } from "../config/native/types.ts";
import type { EngineSettings } from "./types.ts";

/**
 * The repository's own configuration of the engine governing these settings (`stylua.toml`, `mago.toml`, ...), not
 * one that only keeps files from it or names a tool poly does not run (`ignoreOnly`: poly's `[defaults]` and the
 * `.editorconfig` still apply there); undefined where none governs.
 */
export function governingNative(settings: EngineSettings | undefined): NativeEngineConfig | undefined {
  const native = settings?.native;
  return native && !native.ignoreOnly ? native : undefined;
}

/**
 * Whether the repository configures the engine governing these settings itself ({@link governingNative}): a file of
 * its own, or the pre-commit hook that runs it (its own defaults beneath the hook's arguments: ruff's `ruff-format`,
 * black's). poly's `[defaults]` then do not apply, nor its line endings.
 */
export function configuredByRepository(settings: EngineSettings | undefined): boolean {
  const native = governingNative(settings);
  return native !== undefined && (native.files.length > 0 || native.hook !== undefined);
}

/**
 * Why the repository's configuration governing these settings cannot be honoured (the engine's own file, or for
 * formatting its `.pre-commit-config.yaml`): the engine neither lints, fixes nor formats under it. Undefined where it can.
 */
export function unhonouredBy(settings: EngineSettings): string | undefined {
  return settings.native?.unhonoured ?? settings.hooks?.unhonoured;
}

/** The uniform keys poly handles itself rather than passing to the upstream tool. */
export const UNIFORM_KEYS = new Set(["enabled", "select", "ignore", "rules"]);

/** The engine-specific keys of a tool table (everything but the uniform ones). */
export function upstreamKeys(settings: EngineSettings): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(settings.tool)) if (!UNIFORM_KEYS.has(k)) out[k] = v;
  return out;
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.map(String) : undefined;
}

/** Whether `code` matches a selector: exact, a prefix (ruff-style "E4"), or a biome-style tail ("noDebugger"). */
export function matchesSelector(code: string, selector: string): boolean {
  if (selector === "ALL") return true;
  if (code === selector || code.startsWith(selector)) return true;
  const tail = code.split("/").pop();
  return tail === selector || code.endsWith("/" + selector);
}

/**
 * Applies `select`, `ignore` and `rules.<id>.level` to diagnostics: drops what is
 * not selected, ignored, or set to `off`, and re-levels the rest.
 */
export function applyRuleSettings(diagnostics: Diagnostic[], settings: EngineSettings): Diagnostic[] {
  const select = stringList(settings.tool.select);
  const ignore = stringList(settings.tool.ignore) ?? [];
  const rules = (settings.tool.rules ?? {}) as Record<string, { level?: string }>;
  const out: Diagnostic[] = [];
  for (const d of diagnostics) {
    const code = d.code ?? "";
    if (select && !select.some((s) => matchesSelector(code, s))) continue;
    if (ignore.some((s) => matchesSelector(code, s))) continue;
    const rule = Object.entries(rules).find(([id]) => matchesSelector(code, id))?.[1];
    if (rule?.level === "off") continue;
    out.push(rule?.level ? { ...d, severity: rule.level as Severity } : d);
  }
  return out;
}
