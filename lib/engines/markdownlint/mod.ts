/**
 * markdownlint — Markdown lint, in-process (npm `markdownlint`, David Anson's
 * rule library: ~50 rules, MD001–MD059), with its fixes.
 *
 * - Tier: in-process (JavaScript). Languages: Markdown (lint; formatting is `dprint`).
 * - Codes are `MD###/alias` (e.g. `MD004/ul-style`); `select`, `ignore` and
 *   `rules.<id>` accept either part. Every finding links to the rule's documentation.
 * - The repository's own `.markdownlint*` / `.markdownlint-cli2.*` (found as
 *   markdownlint-cli2 finds it: lib/config/native/markdownlint.ts) replaces poly's
 *   defaults below: markdownlint's own defaults fill what it leaves unset.
 * - Defaults without one: every rule but those a formatter owns ({@link FORMATTER_OWNED_RULES}:
 *   markdownlint's `style/prettier` set, as trunk ships it; MD013 line length among them),
 *   since `poly fmt` formats Markdown. poly.toml turns any back on (`MD013 = true`, or a
 *   `rules.MD013` table). `[defaults] line_length` → MD013's `line_length`.
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
import type { Diagnostic } from "../../report/schema.ts";
import { applyRuleSettings, governingNative, UNIFORM_KEYS } from "../settings.ts";
import { lineStarts, utf16ToBytes } from "../text.ts";
import { messageOf, packageFiles } from "../module.ts";
import { EngineError, type EngineInstance, type EngineSettings, type EngineSpec, type SourceFile } from "../types.ts";
import type { LintError } from "markdownlint";

const PACKAGE = "markdownlint";
const VERSION = "0.42.1";

/**
 * The rules poly turns off by default: those a formatter owns (`poly fmt` formats
 * Markdown with dprint), i.e. markdownlint's own `style/prettier` set, which is what
 * trunk ships as its default `.markdownlint.yaml` (`extends: markdownlint/style/prettier`).
 * MD013 (line length) is the one that floods prose. Content rules (MD033 inline HTML,
 * MD041 first-line heading, ...) stay on, as in trunk's. Keyed by rule id, valued by alias;
 * tests/engines/markdownlint_defaults_test.ts holds it equal to the upstream file.
 */
export const FORMATTER_OWNED_RULES: Readonly<Record<string, string>> = {
  MD003: "heading-style",
  MD005: "list-indent",
  MD007: "ul-indent",
  MD009: "no-trailing-spaces",
  MD010: "no-hard-tabs",
  MD012: "no-multiple-blanks",
  MD013: "line-length",
  MD018: "no-missing-space-atx",
  MD019: "no-multiple-space-atx",
  MD020: "no-missing-space-closed-atx",
  MD021: "no-multiple-space-closed-atx",
  MD022: "blanks-around-headings",
  MD023: "heading-start-left",
  MD027: "no-multiple-space-blockquote",
  MD028: "no-blanks-blockquote",
  MD029: "ol-prefix",
  MD030: "list-marker-space",
  MD031: "blanks-around-fences",
  MD032: "blanks-around-lists",
  MD035: "hr-style",
  MD048: "code-fence-style",
  MD049: "emphasis-style",
  MD050: "strong-style",
};

const ALIAS_TO_ID = new Map(
  Object.entries(FORMATTER_OWNED_RULES).flatMap(([id, alias]) => [[id, id], [alias.toUpperCase(), id]]),
);

/** A configuration key as poly's defaults name it: a formatter-owned rule's alias becomes its id. */
function ruleKey(key: string): string {
  return ALIAS_TO_ID.get(key.toUpperCase()) ?? key;
}

/**
 * poly's default markdownlint configuration: every rule on but
 * {@link FORMATTER_OWNED_RULES}; MD013 carries `[defaults] line_length` for when
 * poly.toml turns it back on. This is the one place a repository's own
 * `.markdownlint*` file (native config discovery) replaces: pass its configuration
 * as `base` to {@link markdownlintConfig}; poly.toml's keys still apply on top.
 */
export function markdownlintDefaults(lineLength: number): Record<string, unknown> {
  const config: Record<string, unknown> = { default: true };
  for (const id of Object.keys(FORMATTER_OWNED_RULES)) config[id] = false;
  config.MD013 = { enabled: false, line_length: lineLength };
  return config;
}

/**
 * markdownlint's configuration object for one file's settings: `base` (poly's
 * defaults), then the `[lint.markdown.markdownlint]` keys. A key or a `rules.<id>`
 * table that names a rule (by id or alias) turns it on unless its `level` is
 * `"off"`; MD013 keeps `[defaults] line_length` unless the table sets its own.
 */
export function markdownlintConfig(
  settings: EngineSettings,
  base: Record<string, unknown> = markdownlintDefaults(settings.defaults.line_length),
): Record<string, unknown> {
  const config: Record<string, unknown> = { ...base };
  const lineLength = { line_length: settings.defaults.line_length };
  for (const [key, value] of Object.entries(settings.tool)) {
    if (UNIFORM_KEYS.has(key)) continue;
    const id = ruleKey(key);
    if (id === "MD013" && value === true) config[id] = lineLength;
    else if (id === "MD013" && typeof value === "object" && value) config[id] = { ...lineLength, ...value };
    else config[id] = value;
  }
  const rules = (settings.tool.rules ?? {}) as Record<string, Record<string, unknown>>;
  for (const [name, table] of Object.entries(rules)) {
    const id = ruleKey(name);
    const { level, ...options } = table ?? {};
    if (level === "off") config[id] = false;
    else {
      const current = config[id];
      const { enabled: _, ...kept } = typeof current === "object" && current ? current as Record<string, unknown> : {};
      config[id] = { ...(id === "MD013" ? lineLength : {}), ...kept, ...options };
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
      // The repository's `.markdownlint*` replaces poly's defaults (markdownlint's own fill the rest).
      // A `.markdownlint-cli2.*` that only keeps files from it (`ignores`, no `config`) leaves poly's defaults.
      config: markdownlintConfig(settings, governingNative(settings)?.options),
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
  // One at a time: a re-levelled finding comes back as a new object (`rules.<id>.level`).
  const chosen = pairs.flatMap((p) => applyRuleSettings([p.d], settings).map((d) => ({ e: p.e, d })));
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
    const [{ lint }, { applyFixes }] = await Promise.all([import("markdownlint/sync"), import("markdownlint")]);
    const lintFn = lint as unknown as Lint;
    return {
      lint(file, settings) {
        return { diagnostics: run(lintFn, file, settings).diagnostics };
      },
      fix(file, settings) {
        let text = file.text;
        let fixed = 0;
        // The findings in `text`: each pass's lint of its fixed text is the next pass's (and, at the end, the lint's).
        let found = run(lintFn, file, settings);
        for (let pass = 0; pass < 5; pass++) {
          const fixable = found.errors.filter((e) => e.fixInfo);
          if (fixable.length === 0) break;
          const next = applyFixes(text, fixable);
          if (next === text) break;
          const after = run(lintFn, { ...file, text: next }, settings);
          fixed += Math.max(fixable.length - after.errors.filter((e) => e.fixInfo).length, 1);
          text = next;
          found = after;
        }
        return { text, fixed, lint: { diagnostics: found.diagnostics } };
      },
    };
  },
};
