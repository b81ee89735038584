/**
 * markdownlint — Markdown lint, in-process (npm `markdownlint`, David Anson's
 * rule library: ~50 rules, MD001–MD059), with its fixes.
 *
 * - Tier: in-process (JavaScript). Languages: Markdown (lint; formatting is `dprint`).
 * - Codes are `MD###/alias` (e.g. `MD004/ul-style`); `select`, `ignore` and
 *   `rules.<id>` accept either part. Every finding links to the rule's documentation.
 * - `[defaults] line_length` → MD013's `line_length`.
 * - `[lint.markdown.markdownlint]` keys: `select` / `ignore`, `rules.<id>.level`
 *   (`"off"` disables the rule), other keys of `rules.<id>` are the rule's own options
 *   (e.g. `[lint.markdown.markdownlint.rules.MD013] code_blocks = false`), and any
 *   other key of the table is passed to markdownlint's configuration as written
 *   (e.g. `default = false`, `MD033 = { allowed_elements = ["br"] }`).
 * - Fixes markdownlint offers are attached as byte-offset edits; `poly lint --fix`
 *   applies them with markdownlint's own `applyFixes`.
 * - Markdown has no syntax errors: any text is a document.
 *
 * Example: `+ item` after `* item` → `MD004/ul-style Unordered list style [Expected: asterisk; Actual: plus]`.
 *
 * @module
 */
import type { Diagnostic } from "../report/schema.ts";
import { applyRuleSettings, UNIFORM_KEYS } from "./_settings.ts";
import { lineStarts, utf16ToBytes } from "./_text.ts";
import { messageOf, packageFiles } from "./_module.ts";
import { EngineError, type EngineInstance, type EngineSettings, type EngineSpec, type SourceFile } from "./types.ts";
import type { LintError } from "markdownlint";
import { lazy } from "../lazy/mod.ts";

const PACKAGE = "markdownlint";
const VERSION = "0.42.1";

/** markdownlint's configuration object for one file's settings. */
export function markdownlintConfig(settings: EngineSettings): Record<string, unknown> {
  const config: Record<string, unknown> = { default: true, MD013: { line_length: settings.defaults.line_length } };
  for (const [key, value] of Object.entries(settings.tool)) if (!UNIFORM_KEYS.has(key)) config[key] = value;
  const rules = (settings.tool.rules ?? {}) as Record<string, Record<string, unknown>>;
  for (const [id, table] of Object.entries(rules)) {
    const { level, ...options } = table ?? {};
    if (level === "off") config[id] = false;
    else if (Object.keys(options).length > 0) {
      const base = config[id];
      config[id] = { ...(typeof base === "object" && base ? base : {}), ...options };
    }
  }
  return config;
}

function fixEdit(
  file: SourceFile,
  starts: number[],
  e: LintError,
): { start: number; end: number; text: string } | undefined {
  const f = e.fixInfo;
  if (!f) return undefined;
  const line = f.lineNumber ?? e.lineNumber;
  const lineStart = starts[line - 1];
  if (lineStart === undefined) return undefined;
  const eol = file.text.includes("\r\n") ? "\r\n" : "\n";
  if (f.deleteCount === -1) {
    const next = starts[line] ?? file.text.length;
    return { start: lineStart, end: next, text: "" };
  }
  const start = lineStart + (f.editColumn ?? 1) - 1;
  return { start, end: start + (f.deleteCount ?? 0), text: (f.insertText ?? "").replace(/\n/g, eol) };
}

type Lint = (options: Record<string, unknown>) => Record<string, LintError[]>;

function run(
  lint: Lint,
  file: SourceFile,
  settings: EngineSettings,
): { errors: LintError[]; diagnostics: Diagnostic[] } {
  let errors: LintError[];
  try {
    errors = lint({
      strings: { [file.relPath]: file.text },
      config: markdownlintConfig(settings),
      handleRuleFailures: true,
    })[file.relPath];
  } catch (e) {
    throw new EngineError(messageOf(e));
  }
  const starts = lineStarts(file.text);
  const pairs = errors.map((e) => {
    const lineText = file.text.slice(starts[e.lineNumber - 1], (starts[e.lineNumber] ?? file.text.length + 1) - 1)
      .replace(/\r$/, "");
    const [col, len] = e.errorRange ?? [1, lineText.length];
    const detail = [e.errorDetail, e.errorContext ? `Context: "${e.errorContext}"` : undefined].filter(Boolean).join(
      "; ",
    );
    const d: Diagnostic = {
      engine: "markdownlint",
      code: e.ruleNames.slice(0, 2).join("/"),
      severity: (e as { severity?: string }).severity === "warning" ? "warning" : "error",
      title: e.ruleDescription + (e.errorDetail ? ` [${e.errorDetail}]` : ""),
      ...(detail ? { description: detail } : {}),
      span: { start_line: e.lineNumber, start_col: col, end_line: e.lineNumber, end_col: Math.max(col + len, col) },
      ...(e.ruleInformation ? { url: e.ruleInformation } : {}),
    };
    const edit = fixEdit(file, starts, e);
    if (edit) {
      const [s, t] = utf16ToBytes(file.text, [edit.start, edit.end]);
      d.fix = [{ start_byte: s, end_byte: t, replacement: edit.text }];
    }
    return { e, d };
  });
  const kept = new Set(applyRuleSettings(pairs.map((p) => p.d), settings));
  const chosen = pairs.filter((p) => kept.has(p.d));
  return { errors: chosen.map((p) => p.e), diagnostics: chosen.map((p) => p.d) };
}

/** The markdownlint engine. */
export const markdownlint: EngineSpec = {
  id: "markdownlint",
  tier: "in-process",
  lintLanguages: ["markdown"],
  formatLanguages: [],
  capabilities: { lint: true, format: false, fix: true },
  upstream: `${PACKAGE} ${VERSION}`,
  defaultEnabled: true,
  moduleUrls() {
    return packageFiles(import.meta.resolve(PACKAGE), [".mjs", ".cjs"]);
  },
  async load(): Promise<EngineInstance> {
    const { sync: { lint }, markdownlint: { applyFixes } } = await lazy.npmMarkdownlint();
    const lintFn = lint as unknown as Lint;
    return {
      lint(file, settings) {
        return { diagnostics: run(lintFn, file, settings).diagnostics };
      },
      fix(file, settings) {
        let text = file.text;
        let fixed = 0;
        for (let pass = 0; pass < 5; pass++) {
          const fixable = run(lintFn, { ...file, text }, settings).errors.filter((e) => e.fixInfo);
          if (fixable.length === 0) break;
          const next = applyFixes(text, fixable);
          if (next === text) break;
          const remaining = run(lintFn, { ...file, text: next }, settings).errors.filter((e) => e.fixInfo).length;
          fixed += Math.max(fixable.length - remaining, 1);
          text = next;
        }
        return { text, fixed };
      },
    };
  },
};
