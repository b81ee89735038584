/**
 * oxlint — fast JavaScript/TypeScript lint (the Oxc project's linter), bundled
 * native: the npm package's N-API binary started with Node (`node
 * <oxlint>/bin/oxlint --format json`), many files per invocation.
 *
 * - Tier: bundled-native. Languages: JavaScript, TypeScript (incl. JSX/TSX).
 *   Opt-in: runs only where `[lint.typescript.oxlint]` / `[lint.javascript.oxlint]`
 *   exists (it complements biome, it does not replace it). Needs `node` on PATH;
 *   without it files are skipped with "node not found on PATH", never reported clean.
 * - Codes are `plugin/rule` (`eslint/no-debugger`, `typescript/no-explicit-any`);
 *   oxlint's "error" / "warning" / "advice" → error / warning / info.
 * - `[lint.<lang>.oxlint]` keys: `select` / `ignore`, `rules.<rule>.level` (also turns
 *   on a rule that is off by default; `rules.<rule>.options = [...]` are its ESLint-style
 *   options), `plugins` (e.g. ["typescript", "unicorn", "react"]), `categories`
 *   (e.g. `{ suspicious = "warn" }`), `env`, `globals`, `settings` — written into a
 *   generated `.oxlintrc.json`. Project `.oxlintrc.json` files are not read.
 * - Fix (`poly lint --fix`): oxlint's safe fixes (`--fix`), applied to a private
 *   copy of the text; the count is the number of findings the fix removed.
 * - A file oxlint cannot parse is an errored record with the line and column.
 * - Batching: {@link Oxlint.lintMany} lints a list of files in one process per
 *   500 files; `lint` batches calls made in the same tick.
 *
 * Example: `if (x) { debugger; }` → `eslint/no-debugger \`debugger\` statement is not allowed`.
 *
 * @module
 */
import { join } from "node:path";
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

const CHUNK = 500;
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

/** Runs oxlint over files (written to a private directory) and returns the raw findings per file. */
async function runOxlint(
  files: SourceFile[],
  settings: EngineSettings,
  fix: boolean,
): Promise<{ raw: OxDiagnostic[][]; texts: string[] }> {
  const script = await oxlintScript();
  return await withTempFiles(files, async (dir, names) => {
    await Deno.writeTextFile(join(dir, ".oxlintrc.json"), JSON.stringify(oxlintConfig(settings)));
    const args = [script, "-c", ".oxlintrc.json", "--format", "json", "--no-ignore", "--disable-nested-config"];
    if (fix) args.push("--fix");
    const run = await runHost("node", [...args, ...names], { cwd: dir });
    const start = run.stdout.indexOf("{");
    if (start < 0) {
      throw new EngineError(`oxlint failed (exit ${run.code}): ${(run.stderr || run.stdout).trim().split("\n")[0]}`);
    }
    const doc = JSON.parse(run.stdout.slice(start)) as { diagnostics: OxDiagnostic[] };
    const index = new Map(names.map((n, i) => [n, i]));
    const raw = files.map(() => [] as OxDiagnostic[]);
    for (const d of doc.diagnostics) {
      const i = index.get(d.filename.replace(/\\/g, "/").replace(/^\.\//, ""));
      if (i !== undefined) raw[i].push(d);
    }
    const texts = fix ? await Promise.all(names.map((n) => Deno.readTextFile(join(dir, n)))) : files.map((f) => f.text);
    return { raw, texts };
  });
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

/** The loaded oxlint engine: one process per 500 files, over private copies. */
export class Oxlint extends CopiesLinter {
  constructor() {
    super(async (files, settings, fix) => {
      const { raw, texts } = await runOxlint(files, settings, fix);
      return { texts, outcomes: files.map((f, j) => outcome({ ...f, text: texts[j] }, raw[j], settings)) };
    }, CHUNK);
  }
}

/** The oxlint engine. */
export const oxlint: EngineSpec = {
  id: "oxlint",
  tier: "bundled-native",
  lintLanguages: ["javascript", "typescript"],
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
