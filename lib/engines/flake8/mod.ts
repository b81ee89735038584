/**
 * flake8 — Python lint where the repository lints with flake8, host tool (`flake8` from PATH).
 *
 * - Tier: host (absent → the files are skipped with "flake8 not found on PATH", never reported clean, never linted by
 *   ruff under rules the project did not choose). Languages: Python (lint only).
 * - It lints a file where a flake8 configuration governs it (`setup.cfg`, `tox.ini` or `.flake8` with a `[flake8]`
 *   section, or `pyproject.toml`'s `[tool.flake8]`: lib/config/native/flake8.ts) and the repository does not configure
 *   ruff's linting (lib/run/plan.ts), in ruff's place; or beside ruff where poly.toml names it (`[lint.python.flake8]`).
 * - flake8 is given the section's keys as written (`select`, `ignore`, `extend-ignore`, `max-line-length`,
 *   `per-file-ignores`, `max-complexity`, its plug-ins' keys, ...) in a private file, and lints private copies laid out
 *   beneath it as the files lie beneath the repository's file, so `per-file-ignores` match as they do in the
 *   repository; its walk's `exclude`, `extend-exclude` and `filename` are evaluated by poly. The plug-ins are those of
 *   the flake8 on PATH; its `--version` line, which lists them, is part of every cached result's key.
 * - poly.toml's `[lint.python.flake8]`: `select` (flake8's `--select`: replaces the selection), `ignore` (added with
 *   `--extend-ignore`), `rules.<code>.level`, and `max_line_length`, `max_doc_length`, `max_complexity` (flags on top).
 * - Every finding is severity `error` (flake8 has no severities) unless re-levelled; a file flake8 cannot parse
 *   (`E999`, `E902`) is an errored record with flake8's findings for it. No fixes (flake8 has none).
 * - Batch: one flake8 process per command line of files (flake8 shares them out over its own worker processes).
 *
 * Example: `import os` unused → `F401 'os' imported but unused`.
 *
 * @module
 */
import { basename, join } from "node:path";
import { relativeInside } from "../../paths/inside.ts";
import type { Flake8Options } from "../../config/native/flake8.ts";
import type { Diagnostic } from "../../report/schema.ts";
import { runHost } from "../host.ts";
import { CopiesLinter, withTempFiles } from "../batch.ts";
import { applyRuleSettings } from "../settings.ts";
import {
  EngineError,
  type EngineSettings,
  type EngineSpec,
  type LintOutput,
  type SourceFile,
  SourceSyntaxError,
} from "../types.ts";

/** Each finding's fields, apart by a character no path or message holds. */
const FORMAT = ["%(path)s", "%(row)d", "%(col)d", "%(code)s", "%(text)s"].join("\x1f");

/** The private configuration file's name, beside the copies (its folder is where flake8's path options start). */
const CONFIG = ".poly-flake8.cfg";

/** A line that keeps the whole file from flake8 (its `NOQA_FILE`, as loose as any of its versions reads it). */
const NOQA_FILE = /^[ \t]*# flake8[:=]\s*noqa/im;

/** Codes flake8 gives a file it could not parse or tokenize: its other checks did not run. */
const UNPARSED = new Set(["E999", "E902"]);

/** poly.toml's `[lint.python.flake8]` keys that are flake8's flags, with the type each takes. */
const FLAGS: Record<string, string> = {
  max_line_length: "--max-line-length",
  max_doc_length: "--max-doc-length",
  max_complexity: "--max-complexity",
};

/** flake8's flags for poly.toml's `[lint.python.flake8]` keys. */
export function flake8Args(settings: EngineSettings): string[] {
  const args: string[] = [];
  for (const [key, value] of Object.entries(settings.tool)) {
    if (key === "enabled" || key === "rules") continue;
    if (key === "select" || key === "ignore") {
      if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
        throw new EngineError(`"${key}" must be a list of codes ("E501", "F")`);
      }
      if (value.length > 0) args.push(`${key === "select" ? "--select" : "--extend-ignore"}=${value.join(",")}`);
      continue;
    }
    const flag = FLAGS[key];
    if (!flag) {
      throw new EngineError(
        `unknown key "${key}" in [lint.python.flake8] (poly passes select, ignore, rules and ${
          Object.keys(FLAGS).join(", ")
        }; flake8's own keys go in its configuration file)`,
      );
    }
    if (!Number.isInteger(value)) throw new EngineError(`"${key}" must be a whole number`);
    args.push(`${flag}=${value}`);
  }
  return args;
}

/** The configuration file flake8 is given: the repository's section as configparser read it, one value per key. */
export function flake8Config(section: Record<string, string>): string {
  const lines = ["[flake8]"];
  for (const [key, value] of Object.entries(section)) {
    // A key configparser could not read back (a `[tool.flake8]` key with `=`, `:` or a comment's mark) flake8 would
    // not know either.
    if (!/^[\w.-]+$/.test(key)) continue;
    const [first, ...rest] = value.split("\n");
    lines.push(`${key} = ${first}`, ...rest.map((line) => `\t${line}`));
  }
  return lines.join("\n") + "\n";
}

/** A column flake8 counts in characters as UTF-16 code units, on line `row` (1-based) of `text`. */
function utf16Column(lines: string[], row: number, col: number): number {
  const line = lines[row - 1];
  if (line === undefined || col <= 1) return Math.max(col, 1);
  let units = 0;
  let chars = 0;
  for (const ch of line) {
    if (chars === col - 1) break;
    units += ch.length;
    chars++;
  }
  return units + (col - 1 - chars) + 1;
}

interface Found {
  row: number;
  col: number;
  code: string;
  text: string;
}

function toDiagnostic(f: Found, lines: string[]): Diagnostic {
  const col = utf16Column(lines, f.row, f.col);
  const line = Math.max(f.row, 1);
  return {
    engine: "flake8",
    code: f.code,
    severity: "error",
    title: f.text,
    span: { start_line: line, start_col: col, end_line: line, end_col: col },
  };
}

/** One file's outcome from flake8's findings in it. */
function outcome(file: SourceFile, found: Found[], settings: EngineSettings): LintOutput | EngineError {
  const lines = file.text.split(/\r\n|\n|\r/);
  const diagnostics = found.map((f) => toDiagnostic(f, lines));
  if (found.some((f) => UNPARSED.has(f.code))) {
    const first = diagnostics.findIndex((d) => UNPARSED.has(d.code!));
    return new SourceSyntaxError([diagnostics[first], ...diagnostics.filter((_, i) => i !== first)]);
  }
  return { diagnostics: applyRuleSettings(diagnostics, settings) };
}

/**
 * Where a file's copy goes in the private folder: beneath the configuration file as the file lies beneath the
 * repository's flake8 file, or, without one, in a numbered folder of its own.
 */
function layout(settings: EngineSettings): (file: SourceFile, index: number) => string {
  const root = settings.native?.root;
  return (file, index) => (root && relativeInside(root, file.path)) || `${index}/${basename(file.path)}`;
}

/** Runs flake8 over private copies of `files`: each file's findings, or its error. */
async function runFlake8(files: SourceFile[], settings: EngineSettings): Promise<(Found[] | EngineError)[]> {
  const args = flake8Args(settings);
  const section = (settings.native?.options as Flake8Options | undefined)?.section ?? {};
  return await withTempFiles(files, async (dir, names) => {
    await Deno.writeTextFile(join(dir, CONFIG), flake8Config(section));
    const distinct = [...new Set(names)];
    const run = await runHost("flake8", [
      `--config=${CONFIG}`,
      "--exit-zero",
      "--benchmark",
      `--format=${FORMAT}`,
      ...args,
      "--",
      ...distinct,
    ], { cwd: dir });
    const processed = /^(\d+)\s+total files processed$/m.exec(run.stdout);
    if (run.code !== 0 || !processed) {
      const said = (run.stderr.trim().split("\n").filter((l) => l.trim() !== "").at(-1) ?? run.stdout.trim()) ||
        `exit ${run.code}`;
      throw new EngineError(`flake8 failed: ${said}`);
    }
    const index = new Map<string, number[]>();
    names.forEach((n, i) => index.get(n)?.push(i) ?? index.set(n, [i]));
    const out: (Found[] | EngineError)[] = files.map(() => []);
    for (const line of run.stdout.split("\n")) {
      const fields = line.split("\x1f");
      if (fields.length !== 5) continue;
      const [path, row, col, code, text] = fields;
      const found = { row: Number(row), col: Number(col), code, text };
      for (const i of index.get(path.replace(/^\.\//, "")) ?? []) (out[i] as Found[]).push(found);
    }
    // flake8 passes over a file its `exclude` matches by its absolute path without a word; poly evaluated them in the
    // repository, where the private folder's path can differ: should it have linted fewer files than it was given
    // (less those a `# flake8: noqa` line keeps from it, which it does not count), no file without findings is
    // reported clean.
    const waived = new Set(names.filter((_, i) => NOQA_FILE.test(files[i].text))).size;
    if (Number(processed[1]) < distinct.length - waived) {
      const skipped = new EngineError(
        `flake8 linted ${processed[1]} of the ${distinct.length} files given to it (its exclude matched some in ` +
          `poly's private copy) and does not say which: this file may be one`,
      );
      out.forEach((r, i) => (r as Found[]).length === 0 && (out[i] = skipped));
    }
    return out;
  }, layout(settings));
}

/** The loaded flake8 engine: one process per command line of files, over private copies. */
class Flake8 extends CopiesLinter {
  constructor() {
    super(async (files, settings) => {
      // The repository's flake8 file cannot be honoured (lib/config/native/flake8.ts): each file says why.
      const unhonoured = settings.native?.unhonoured;
      const found = unhonoured ? files.map(() => new EngineError(unhonoured)) : await runFlake8(files, settings);
      return {
        texts: files.map((f) => f.text),
        outcomes: files.map((f, i) => {
          const r = found[i];
          return r instanceof EngineError ? r : outcome(f, r, settings);
        }),
      };
    }, Infinity);
  }
}

/** The flake8 engine. */
export const flake8: EngineSpec = {
  id: "flake8",
  tier: "host",
  lintLanguages: ["python"],
  formatLanguages: [],
  capabilities: { lint: true, format: false, fix: false },
  upstream: "flake8 (host)",
  defaultEnabled: false,
  hostProgram: "flake8",
  batch: { lint: true },
  moduleUrls: () => Promise.resolve([]),
  load: () => Promise.resolve(new Flake8()),
};
