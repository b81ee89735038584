/**
 * oxlint — fast JavaScript/TypeScript lint (the Oxc project's linter), bundled
 * native: the npm package's N-API binary started with Node (`node
 * <oxlint>/bin/oxlint --format json`), many files per invocation.
 *
 * - Tier: bundled-native. Languages: JavaScript, TypeScript (incl. JSX/TSX), and the scripts of Vue,
 *   Svelte and Astro files.
 *   Runs where the repository's own oxlint file governs (`.oxlintrc.json`, in biome's place unless a
 *   biome file of biome's own governs too: lib/run/plan.ts), and where `[lint.typescript.oxlint]` /
 *   `[lint.javascript.oxlint]` exists (beside biome). Needs `node` on PATH;
 *   without it files are skipped with "node not found on PATH", never reported clean.
 * - Codes are `plugin/rule` (`eslint/no-debugger`, `typescript/no-explicit-any`);
 *   oxlint's "error" / "warning" / "advice" → error / warning / info.
 * - `[lint.<lang>.oxlint]` keys: `select` / `ignore`, `rules.<rule>.level` (also turns
 *   on a rule that is off by default; `rules.<rule>.options = [...]` are its ESLint-style
 *   options), `plugins` (e.g. ["typescript", "unicorn", "react"]), `categories`
 *   (e.g. `{ suspicious = "warn" }`), `env`, `globals`, `settings` — written into a
 *   generated `.oxlintrc.json`, on top of the repository's own oxlint file where one governs
 *   (lib/config/native/oxlint.ts: the nearest `.oxlintrc.json` / `.jsonc` / `oxlint.config.ts`, its `extends`,
 *   `overrides` and `ignorePatterns` as oxlint applies them; `[tools.oxlint] native_config = false` turns it off).
 * - Fix (`poly lint --fix`): oxlint's safe fixes (`--fix`), applied to a private
 *   copy of the text; the count is the number of findings the fix removed.
 * - A file oxlint cannot parse is an errored record with the line and column.
 * - Batching: {@link Oxlint.lintMany} lints a list of files in one process (a command line's worth of
 *   paths: `ARGS_BUDGET`); `lint` batches calls made in the same tick.
 *
 * Example: `if (x) { debugger; }` → `eslint/no-debugger \`debugger\` statement is not allowed`.
 *
 * @module
 */
import { basename, isAbsolute, join } from "node:path";
import { relativeInside } from "../../paths/inside.ts";
import type { NativeEngineConfig } from "../../config/native/types.ts";
import type { Diagnostic, Severity } from "../../report/schema.ts";
import { runHost } from "../host.ts";
import { CopiesLinter, withTempFiles } from "../batch.ts";
import { bindingUrl, OXLINT_VERSION, oxlintScript, scriptUrls } from "./_bin.ts";
import { applyRuleSettings } from "../settings.ts";
import { bytesToUtf16, indexToPosition, lineStarts } from "../text.ts";
import {
  EngineError,
  type EngineSettings,
  type EngineSpec,
  type LintOutput,
  type SourceFile,
  SourceSyntaxError,
} from "../types.ts";

const PASSTHROUGH = new Set(["plugins", "categories", "env", "globals", "settings"]);
const LEVELS: Record<string, string> = { off: "off", error: "error", warning: "warn", info: "warn", hint: "warn" };
const SEVERITIES: Record<string, Severity> = { error: "error", warning: "warning", advice: "info" };

interface OxSpan {
  offset: number;
  length: number;
}
interface OxDiagnostic {
  message: string;
  code?: string;
  severity: string;
  url?: string;
  help?: string;
  filename: string;
  labels?: { span: OxSpan }[];
}

/** The generated `.oxlintrc.json` for one file's settings. */
export function oxlintConfig(settings: EngineSettings): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  const rules: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(settings.tool)) {
    if (PASSTHROUGH.has(k)) config[k] = v;
    else if (!["enabled", "select", "ignore", "rules"].includes(k)) {
      throw new EngineError(
        `unknown setting "${k}" (known: select, ignore, rules, ${[...PASSTHROUGH].join(", ")})`,
      );
    }
  }
  for (
    const [id, table] of Object.entries(
      (settings.tool.rules ?? {}) as Record<string, { level?: string; options?: unknown[] }>,
    )
  ) {
    const level = LEVELS[table.level ?? "warning"] ?? "warn";
    rules[id] = Array.isArray(table.options) ? [level, ...table.options] : level;
  }
  if (Object.keys(rules).length) config.rules = rules;
  return config;
}

/**
 * The configuration oxlint is given for files under `native` (written into the engine's private folder): the
 * governing file's object with its `extends` made absolute, and `own` (poly.toml's keys) on top — `rules`,
 * `categories`, `env`, `globals` and `settings` entry by entry, `plugins` whole (oxlint's `plugins` replaces the set).
 */
export function oxlintWithProject(native: NativeEngineConfig, own: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...native.options };
  if (Array.isArray(out.extends)) {
    out.extends = (out.extends as string[]).map((e) => isAbsolute(e) ? e : join(native.root, e));
  }
  for (const [key, value] of Object.entries(own)) {
    const under = out[key];
    out[key] = key !== "plugins" && isObject(value) && isObject(under) ? { ...under, ...value } : value;
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** `eslint(no-debugger)` → `eslint/no-debugger`; `typescript-eslint(x)` → `typescript/x`. */
export function normalizeCode(code: string): string {
  const m = /^([\w@/-]+)\(([^)]+)\)$/.exec(code);
  if (!m) return code;
  const plugin = m[1].replace(/^eslint-plugin-/, "").replace(/^typescript-eslint$/, "typescript");
  return `${plugin}/${m[2]}`;
}

function toDiagnostic(d: OxDiagnostic, text: string, starts: number[]): Diagnostic {
  const span = d.labels?.[0]?.span;
  const out: Diagnostic = {
    engine: "oxlint",
    ...(d.code ? { code: normalizeCode(d.code) } : {}),
    severity: SEVERITIES[d.severity] ?? "warning",
    title: d.message,
    ...(d.help ? { description: d.help } : {}),
    ...(d.url ? { url: d.url } : {}),
  };
  if (span) {
    const [a, b] = bytesToUtf16(text, [span.offset, span.offset + span.length]);
    const s = indexToPosition(starts, a);
    const e = indexToPosition(starts, b);
    out.span = { start_line: s.line, start_col: s.col, end_line: e.line, end_col: e.col };
  }
  return out;
}

/**
 * Where a file's copy goes in the private directory: beneath the generated configuration as the file lies beneath
 * the repository's oxlint file (its `overrides` globs then match as they do in the repository), or, without one, in a
 * numbered folder of its own.
 */
function layout(settings: EngineSettings): ((file: SourceFile, index: number) => string) | undefined {
  const root = settings.native?.root;
  if (!root) return undefined;
  return (file, index) => relativeInside(root, file.path) ?? `${index}/${basename(file.path)}`;
}

/** Runs oxlint over files (written to a private directory) and returns the raw findings per file. */
async function runOxlint(
  files: SourceFile[],
  settings: EngineSettings,
  fix: boolean,
): Promise<{ raw: (OxDiagnostic[] | EngineError)[]; texts: string[] }> {
  const script = await oxlintScript();
  const config = settings.native ? oxlintWithProject(settings.native, oxlintConfig(settings)) : oxlintConfig(settings);
  return await withTempFiles(files, async (dir, names) => {
    await Deno.writeTextFile(join(dir, ".oxlintrc.json"), JSON.stringify(config));
    const args = [script, "-c", ".oxlintrc.json", "--format", "json", "--no-ignore", "--disable-nested-config"];
    if (fix) args.push("--fix");
    const distinct = [...new Set(names)];
    const run = await runHost("node", [...args, ...distinct], { cwd: dir });
    const start = run.stdout.indexOf("{");
    if (start < 0) {
      throw new EngineError(`oxlint failed (exit ${run.code}): ${(run.stderr || run.stdout).trim().split("\n")[0]}`);
    }
    const doc = JSON.parse(run.stdout.slice(start)) as { diagnostics: OxDiagnostic[]; number_of_files?: number };
    const index = new Map<string, number[]>();
    names.forEach((n, i) => index.get(n)?.push(i) ?? index.set(n, [i]));
    const raw: (OxDiagnostic[] | EngineError)[] = files.map(() => [] as OxDiagnostic[]);
    for (const d of doc.diagnostics) {
      for (const i of index.get(d.filename.replace(/\\/g, "/").replace(/^\.\//, "")) ?? []) {
        (raw[i] as OxDiagnostic[]).push(d);
      }
    }
    // oxlint passes over a file its configuration ignores without a word: should it have linted fewer files than it
    // was given (a pattern poly matched otherwise), no file without findings is reported clean.
    if (doc.number_of_files !== undefined && doc.number_of_files < distinct.length) {
      const skipped = new EngineError(
        `oxlint linted ${doc.number_of_files} of the ${distinct.length} files given to it (its configuration's ` +
          `ignorePatterns left some out) and does not say which: this file may be one`,
      );
      raw.forEach((r, i) => (r as OxDiagnostic[]).length === 0 && (raw[i] = skipped));
    }
    const texts = fix ? await Promise.all(names.map((n) => Deno.readTextFile(join(dir, n)))) : files.map((f) => f.text);
    return { raw, texts };
  }, layout(settings));
}

function outcome(file: SourceFile, raw: OxDiagnostic[], settings: EngineSettings): LintOutput | EngineError {
  const starts = lineStarts(file.text);
  const fatal = raw.find((d) => !d.code && d.severity === "error");
  if (fatal) {
    const d = toDiagnostic(fatal, file.text, starts);
    return new SourceSyntaxError([{ ...d, engine: "oxlint", code: "syntax", severity: "error", title: fatal.message }]);
  }
  return { diagnostics: applyRuleSettings(raw.map((d) => toDiagnostic(d, file.text, starts)), settings) };
}

/** The loaded oxlint engine: one process per command line of files, over private copies. */
export class Oxlint extends CopiesLinter {
  constructor() {
    super(async (files, settings, fix) => {
      // The repository's oxlint file cannot be honoured (lib/config/native/oxlint.ts): each file says why.
      const unhonoured = settings.native?.unhonoured;
      if (unhonoured) {
        return {
          texts: files.map((f) => f.text),
          outcomes: files.map(() => new EngineError(unhonoured)),
        };
      }
      const { raw, texts } = await runOxlint(files, settings, fix);
      return {
        texts,
        outcomes: files.map((f, j) => {
          const found = raw[j];
          return found instanceof EngineError ? found : outcome({ ...f, text: texts[j] }, found, settings);
        }),
      };
    }, Infinity); // one process for as many files as its command line takes (oxlint lints them on every core)
  }
}

/** The oxlint engine. */
export const oxlint: EngineSpec = {
  id: "oxlint",
  tier: "bundled-native",
  // Vue, Svelte and Astro: the scripts in them, as oxlint's command line lints them (positions are the whole file's).
  lintLanguages: ["javascript", "typescript", "vue", "svelte", "astro"],
  formatLanguages: [],
  capabilities: { lint: true, format: false, fix: true },
  upstream: `oxlint ${OXLINT_VERSION}`,
  defaultEnabled: false,
  hostProgram: "node",
  batch: { lint: true },
  async moduleUrls() {
    return [...(await scriptUrls()).map((u) => u.href), bindingUrl().href];
  },
  load: () => Promise.resolve(new Oxlint()),
};
