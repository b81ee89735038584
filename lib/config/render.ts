/**
 * `poly config show`: the effective configuration as TOML (with a comment block
 * naming its fingerprint, sources and excludes) or as a JSON document.
 *
 * @module
 */
import { stringify } from "smol-toml";
import type { ResolvedConfig } from "./types.ts";

/** How paths are shown: relative to the run's directory where possible. */
export type DisplayPath = (path: string) => string;

/** The JSON document `poly config show --format json` prints (paths shown through `display`). */
export interface ConfigShowDocument {
  hash: string;
  dir: string;
  sources: string[];
  excludes: { pattern: string; base: string }[];
  per_file_ignores: { pattern: string; base: string; codes: string[] }[];
  rules_dirs: string[];
  config: Record<string, unknown>;
  /**
   * The engines' own config files governing the directory (lib/config/native/), by engine: the files,
   * the effective native options, and for each native key the file it came from; `unhonoured` says why poly cannot
   * honour them (every file the engine lints or formats there errors saying so). Absent when none.
   */
  native?: Record<
    string,
    { files: string[]; options: Record<string, unknown>; origins: Record<string, string>; unhonoured?: string }
  >;
}

/** Builds the JSON document for a resolved config. */
export function showDocument(config: ResolvedConfig, display: DisplayPath): ConfigShowDocument {
  return {
    hash: config.hash,
    dir: display(config.dir),
    sources: config.sources.map(display),
    excludes: config.excludes.map((e) => ({ pattern: e.pattern, base: display(e.base) })),
    per_file_ignores: config.perFileIgnores.map((e) => ({ pattern: e.pattern, base: display(e.base), codes: e.codes })),
    rules_dirs: config.rulesDirs.map(display),
    config: JSON.parse(JSON.stringify(config.data)),
    ...nativeSection(config, display),
  };
}

function nativeSection(config: ResolvedConfig, display: DisplayPath): Pick<ConfigShowDocument, "native"> {
  const out: NonNullable<ConfigShowDocument["native"]> = {};
  for (const [id, n] of Object.entries(config.native ?? {})) {
    if (n.files.length === 0 && !n.unhonoured) continue;
    out[id] = {
      files: n.files.map((f) => display(f.path)),
      options: n.options,
      origins: n.origins ?? {},
      ...(n.unhonoured ? { unhonoured: n.unhonoured } : {}),
    };
  }
  return Object.keys(out).length > 0 ? { native: out } : {};
}

/** `poly config show --format json`. */
export function renderJson(config: ResolvedConfig, display: DisplayPath): string {
  return JSON.stringify(showDocument(config, display), null, 2) + "\n";
}

/** `poly config show --format toml`: a comment header, then the merged config. */
export function renderToml(config: ResolvedConfig, display: DisplayPath): string {
  const doc = showDocument(config, display);
  const lines = [
    `# Effective poly configuration for "${doc.dir}" (poly config show)`,
    `# hash: ${doc.hash}`,
  ];
  if (doc.sources.length === 0) lines.push("# sources: none (built-in defaults)");
  else {
    lines.push("# sources, farthest first:");
    for (const source of doc.sources) lines.push(`#   ${source}`);
  }
  if (doc.excludes.length > 0) {
    lines.push("# excludes, each relative to the directory in brackets:");
    for (const e of doc.excludes) lines.push(`#   ${JSON.stringify(e.pattern)} [${e.base}]`);
  }
  if (doc.per_file_ignores.length > 0) {
    lines.push("# per-file-ignores, each relative to the directory in brackets:");
    for (const e of doc.per_file_ignores) {
      lines.push(`#   ${JSON.stringify(e.pattern)} = ${JSON.stringify(e.codes)} [${e.base}]`);
    }
  }
  lines.push(`# rules dirs: ${doc.rules_dirs.map((d) => JSON.stringify(d)).join(", ") || "none"}`);
  for (const [id, n] of Object.entries(doc.native ?? {})) {
    if (id === "node-manifest") {
      // Not an engine's configuration: the package.json whose dependencies turn on biome's rule domains.
      lines.push(`# biome's manifest (its dependencies turn on biome's rule domains): ${n.files.join(", ")}`);
      continue;
    }
    if (id === "pre-commit" && n.unhonoured) {
      lines.push(`# pre-commit: ${n.files.join(", ")} cannot be read, so every file poly would format errors:`);
      lines.push(`#   ${n.unhonoured}`);
      continue;
    }
    if (id === "pre-commit") {
      // Not an engine's configuration: the hooks that say which formatter keeps which files.
      lines.push(`# pre-commit: the formatting hooks of ${n.files.join(", ")}:`);
      type Hook = { id: string; tool: string; engine?: string; lints?: boolean; languages: string[] };
      for (const h of (n.options.hooks ?? []) as Hook[]) {
        const does = h.lints ? "lints" : "formats";
        const how = h.engine
          ? `${h.tool} ${does} as the hook runs it`
          : `keeps the files it takes (${h.tool}, which poly does not run on them)`;
        lines.push(`#   "${h.id}": ${how}; ${h.languages.join(", ")}`);
      }
      continue;
    }
    if (id === "kept-style") {
      lines.push("# formatters poly does not run keep these languages' files:");
      for (const [language, by] of Object.entries(n.options)) lines.push(`#   ${language}: ${by}`);
      continue;
    }
    if (n.unhonoured) {
      lines.push(`# ${id}: its own configuration cannot be honoured, so every file ${id} checks here errors:`);
      lines.push(`#   ${n.unhonoured}`);
      continue;
    }
    lines.push(`# ${id}: the repository's own configuration governs (poly.toml's [lint|fmt.*.${id}] keys on top):`);
    for (const [key, file] of Object.entries(n.origins)) lines.push(`#   ${key} from ${file}`);
  }
  const body = stringify(pruneEmptyTables(doc.config)).trimEnd();
  return `${lines.join("\n")}\n${body ? `\n${body}\n` : ""}`;
}

/** Drops tables that hold nothing (an empty `[fmt]` says nothing a reader needs). */
function pruneEmptyTables(table: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(table)) {
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      const inner = pruneEmptyTables(value as Record<string, unknown>);
      if (Object.keys(inner).length > 0) out[key] = inner;
    } else out[key] = value;
  }
  return out;
}
