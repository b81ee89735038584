/**
 * deno-lint — Deno's linter (`deno lint --json`), a host program: a Deno project's JavaScript and TypeScript are
 * linted by the tool the project lints them with, under its `deno.json` `lint` rules.
 *
 * - Tier: host (`deno` on PATH; without it the files are skipped with "deno not found on PATH", never reported clean).
 *   Languages: JavaScript, TypeScript (JSX, TSX). Runs where a `deno.json` governs (lib/config/native/deno.ts: a
 *   `lint` key, or the Deno project whose formatter is `deno fmt`), in biome's place there; or where poly.toml names
 *   it (`[lint.typescript.deno-lint]`).
 * - The `deno.json`'s `lint.rules` (`tags`, `include`, `exclude`; a workspace root's beneath a member's) are written
 *   into a generated `deno.json` beside private copies of the files, one `deno lint` per 500 files; `// deno-lint-ignore`
 *   comments work as in the files. `lint.plugins` (the repository's JavaScript, which `deno lint` would run with read
 *   access to the machine) are not run: each file's built-in findings are reported, with a skip naming the plugins
 *   whose rules were not checked.
 * - Codes are Deno's rule names (`prefer-const`, `no-explicit-any`); every finding is an error, as `deno lint` fails on
 *   each. `[lint.<lang>.deno-lint]` takes `select`, `ignore` and `rules.<code>.level`.
 * - Fix (`poly lint --fix`): `deno lint --fix` on a private copy; the count is the findings the fix removed.
 * - A file Deno cannot parse is an errored record at its line and column.
 *
 * Example: `let a = 1; export { a }` → `prefer-const \`a\` is never reassigned`.
 *
 * @module
 */
import { join } from "node:path";
import type { Diagnostic } from "../../report/schema.ts";
import { runHost } from "../host.ts";
import { CopiesLinter, withTempFiles } from "../batch.ts";
import { applyRuleSettings } from "../settings.ts";
import { bytesToUtf16, indexToPosition, lineStarts } from "../text.ts";
import {
  EngineError,
  type EngineSettings,
  type EngineSpec,
  type LintOutput,
  type SourceFile,
  SourceSyntaxError,
  syntaxDiagnostic,
} from "../types.ts";

const CHUNK = 500;
const UNIFORM = new Set(["enabled", "select", "ignore", "rules"]);

interface DenoDiagnostic {
  filename: string;
  range: { start: { bytePos: number }; end: { bytePos: number } };
  message: string;
  code: string;
  hint?: string | null;
}

interface DenoReport {
  diagnostics: DenoDiagnostic[];
  errors: { file_path: string; message: string }[];
}

/** The generated `deno.json` for one file's settings: its `deno.json`'s lint rules (never its plugins). */
export function denoLintConfig(settings: EngineSettings): Record<string, unknown> {
  for (const key of Object.keys(settings.tool)) {
    if (!UNIFORM.has(key)) throw new EngineError(`unknown setting "${key}" (known: select, ignore, rules)`);
  }
  const options = settings.native?.options ?? {};
  if (settings.native?.unhonoured) throw new EngineError(settings.native.unhonoured);
  return { lint: { ...(options.rules ? { rules: options.rules } : {}) } };
}

/**
 * What a file's findings lack where the `deno.json` names lint plugins: they are the repository's own code, run by
 * `deno lint` with read access to the machine, which poly does not run; or undefined.
 */
export function pluginsNotRun(settings: EngineSettings): string | undefined {
  const plugins = settings.native?.options.plugins;
  if (plugins === undefined) return undefined;
  const names = (Array.isArray(plugins) ? plugins : [plugins]).map((p) => `"${p}"`).join(", ");
  return `deno lint plugins ${names} not run (the repository's own code, which poly does not run): their rules are not checked`;
}

/** The name a finding's file has among the copies (`3/a.ts`): its last two path segments. */
function copyName(path: string): string {
  const parts = path.replace(/^file:\/\//, "").split("/");
  return parts.slice(-2).join("/");
}

/** Runs `deno lint` over private copies of `files`; the raw report per file, and the texts after a fix. */
async function runDenoLint(
  files: SourceFile[],
  settings: EngineSettings,
  fix: boolean,
): Promise<{ found: DenoDiagnostic[][]; errors: (string | undefined)[]; texts: string[] }> {
  const config = JSON.stringify(denoLintConfig(settings));
  return await withTempFiles(files, async (dir, names) => {
    await Deno.writeTextFile(join(dir, "deno.json"), config);
    const args = ["lint", "--json", "--config", "deno.json", ...(fix ? ["--fix"] : []), ...names];
    const run = await runHost("deno", args, { cwd: dir, env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" } });
    const start = run.stdout.indexOf("{");
    if (start < 0) {
      throw new EngineError(`deno lint failed (exit ${run.code}): ${(run.stderr || run.stdout).trim().split("\n")[0]}`);
    }
    const report = JSON.parse(run.stdout.slice(start)) as DenoReport;
    const index = new Map(names.map((n, i) => [n, i]));
    const found = files.map(() => [] as DenoDiagnostic[]);
    const errors = files.map(() => undefined as string | undefined);
    for (const d of report.diagnostics) {
      const i = index.get(copyName(d.filename));
      if (i !== undefined) found[i].push(d);
    }
    for (const e of report.errors) {
      const i = index.get(copyName(e.file_path));
      if (i !== undefined) errors[i] = e.message;
    }
    const texts = fix ? await Promise.all(names.map((n) => Deno.readTextFile(join(dir, n)))) : files.map((f) => f.text);
    return { found, errors, texts };
  });
}

function outcome(
  file: SourceFile,
  found: DenoDiagnostic[],
  error: string | undefined,
  settings: EngineSettings,
): LintOutput | EngineError {
  if (error) {
    // "SyntaxError: Unexpected token ...\n  |\n1 | ...\n    at file:///.../a.ts:1:9"
    const title = error.split("\n")[0].replace(/^SyntaxError: /, "");
    const at = / at \S+:(\d+):(\d+)\s*$/.exec(error);
    if (!at) return new EngineError(`deno lint: ${title}`);
    return new SourceSyntaxError([
      syntaxDiagnostic("deno-lint", "syntax", title, { line: Number(at[1]), column: Number(at[2]) }),
    ]);
  }
  const starts = lineStarts(file.text);
  const partial = pluginsNotRun(settings);
  // Without the plugins, an ignore comment naming one of their rules (`plugin/rule`) is "unknown" to deno lint.
  const own = partial
    ? found.filter((d) => !(d.code === "ban-unknown-rule-code" && /"[^"/]+\/[^"]+"/.test(d.message)))
    : found;
  const diagnostics = own.map((d): Diagnostic => {
    const [a, b] = bytesToUtf16(file.text, [d.range.start.bytePos, d.range.end.bytePos]);
    const s = indexToPosition(starts, a);
    const e = indexToPosition(starts, b);
    return {
      engine: "deno-lint",
      code: d.code,
      severity: "error",
      title: d.message,
      ...(d.hint ? { description: d.hint } : {}),
      url: `https://docs.deno.com/lint/rules/${d.code}`,
      span: { start_line: s.line, start_col: s.col, end_line: e.line, end_col: e.col },
    };
  });
  return { diagnostics: applyRuleSettings(diagnostics, settings), ...(partial ? { partial } : {}) };
}

/** The deno-lint engine. */
export const denoLint: EngineSpec = {
  id: "deno-lint",
  tier: "host",
  lintLanguages: ["javascript", "typescript"],
  formatLanguages: [],
  capabilities: { lint: true, format: false, fix: true },
  upstream: "deno lint (the deno on PATH)",
  defaultEnabled: false,
  hostProgram: "deno",
  batch: { lint: true },
  moduleUrls: () => Promise.resolve([]),
  load: () =>
    Promise.resolve(
      new CopiesLinter(async (files, settings, fix) => {
        const { found, errors, texts } = await runDenoLint(files, settings, fix);
        return {
          texts,
          outcomes: files.map((f, j) => outcome({ ...f, text: texts[j] }, found[j], errors[j], settings)),
        };
      }, CHUNK),
    ),
};
