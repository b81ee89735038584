/**
 * black — Python formatting where the repository formats with black, host tool (`black` from PATH).
 *
 * - Tier: host (absent → the files are skipped with "black not found on PATH", never reported clean, never formatted
 *   by another formatter in a style the project did not choose). Languages: Python (format only).
 * - It formats a file only where a `[tool.black]` table governs it and the repository does not configure ruff's
 *   formatter (lib/run/plan.ts, lib/config/native/black.ts), where the repository's pre-commit hook runs it
 *   (lib/config/native/pre_commit.ts: the hook's flags over the table's keys, and `--required-version` the major
 *   version its `rev` pins, so a black of another year's style on PATH refuses, saying which to install), where the
 *   repository declares black among its dependencies and configures neither (lib/config/native/python_deps.ts: black's
 *   defaults, held to the major release pinned), or where poly.toml names it (`[fmt.python.black]`).
 * - black reads the governing `pyproject.toml` itself (`--config`), every key of its table included (`line-length`,
 *   `target-version` or the version `requires-python` implies, `skip-string-normalization`, `preview`, ...); without
 *   one, an empty file, so no user-level configuration is read. poly.toml's `[fmt.python.black]` keys are black's
 *   flags on top: `line_length`, `skip_string_normalization`, `skip_magic_trailing_comma`, `target_version` (a list),
 *   `preview`, `required_version`. The folders and files black's walk would leave out are left out by poly
 *   (`exclude`, `extend-exclude`, `force-exclude`, `include`).
 * - black keeps each file's line endings; its output is the file (`[defaults]` do not apply).
 * - Batch: one black process formats private copies of a run's files (black's own workers share them out); a file
 *   black cannot parse is an errored record with its line and column. black's cache lives in that private folder.
 *
 * Example: under `line-length = 79`, `f(aaaa, bbbb)` past column 79 is split one argument per line.
 *
 * @module
 */
import { join } from "node:path";
import { runHost } from "../host.ts";
import { Batcher, type Settled, withTempFiles } from "../batch.ts";
import {
  EngineError,
  type EngineInstance,
  type EngineSettings,
  type EngineSpec,
  type SourceFile,
  SourceSyntaxError,
  syntaxDiagnostic,
} from "../types.ts";

/** black's flags for poly.toml's `[fmt.python.black]` keys. */
export function blackArgs(settings: EngineSettings): string[] {
  const t = settings.tool;
  const args: string[] = [];
  if (t.line_length !== undefined) {
    if (!Number.isInteger(t.line_length)) throw new EngineError(`"line_length" must be a whole number`);
    args.push("--line-length", String(t.line_length));
  }
  for (
    const [key, flag] of [
      ["skip_string_normalization", "--skip-string-normalization"],
      ["skip_magic_trailing_comma", "--skip-magic-trailing-comma"],
      ["preview", "--preview"],
    ]
  ) {
    if (t[key] === undefined) continue;
    if (typeof t[key] !== "boolean") throw new EngineError(`"${key}" must be true or false`);
    if (t[key]) args.push(flag);
  }
  if (t.required_version !== undefined) args.push("--required-version", String(t.required_version));
  if (t.target_version !== undefined) {
    const list = t.target_version;
    if (!Array.isArray(list) || list.some((v) => typeof v !== "string")) {
      throw new EngineError(`"target_version" must be a list of versions ("py310", ...)`);
    }
    for (const v of list) args.push("--target-version", v);
  }
  return args;
}

/** `error: cannot format PATH: MESSAGE` lines of black's, by path. */
function failures(stderr: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of stderr.split("\n")) {
    const m = /^error: cannot format (.+?): (.*)$/.exec(line);
    if (m) out.set(m[1], m[2]);
  }
  return out;
}

/** A file black could not format: a syntax error at its line and column, else the message. */
function failed(message: string): EngineError {
  const pos = /Cannot parse[^:]*: (\d+):(\d+): ?(.*)$/.exec(message);
  if (pos) {
    const title = `cannot parse${pos[3] ? `: ${pos[3]}` : ""}`;
    return new SourceSyntaxError([syntaxDiagnostic("black", "syntax", title, { line: +pos[1], column: +pos[2] + 1 })]);
  }
  return new EngineError(`black: ${message}`);
}

/** Formats `files` with one black process over private copies; each file's text, or its error. */
export async function formatMany(files: SourceFile[], settings: EngineSettings): Promise<Settled<string>[]> {
  // The flags of the repository's pre-commit hook (lib/config/native/black.ts), poly.toml's keys over them.
  const hooked = settings.native?.options.args as Record<string, unknown> | undefined;
  const args = blackArgs(hooked ? { ...settings, tool: { ...hooked, ...settings.tool } } : settings);
  return await withTempFiles(files, async (dir, names) => {
    const real = await Deno.realPath(dir);
    // The `pyproject.toml` holding black's table, or declaring black (a requirements file declares it without one).
    let config = settings.native?.files[0]?.path;
    if (!config?.endsWith(".toml")) {
      // No table of the repository's: an empty file, so black reads no user-level configuration either.
      config = join(real, "pyproject.toml");
      await Deno.writeTextFile(config, "");
    }
    const cache = join(real, ".black-cache");
    const paths = names.map((n) => join(real, n));
    const run = await runHost("black", ["--quiet", "--config", config, ...args, "--", ...paths], {
      cwd: real,
      env: { BLACK_CACHE_DIR: cache },
    });
    const errors = failures(run.stderr);
    if (run.code !== 0 && errors.size === 0) {
      const pinned = /The required version `([^`]+)` does not match the running version `([^`]+)`/.exec(run.stderr);
      if (pinned) {
        const [, wanted, running] = pinned;
        throw new EngineError(
          `black ${running} on PATH does not lay code out as black ${wanted}, which the repository asks for (its ` +
            "pre-commit hook's rev, `required-version`, or the release its dependencies pin; black's stable style " +
            "changes with its major version): " +
            `install black ${wanted} to format and check these files`,
        );
      }
      // click's usage error says what is wrong on its `Error:` line, after the usage.
      const lines = (run.stderr || run.stdout).trim().split("\n");
      const first = lines.find((l) => l.startsWith("Error: ")) ?? lines[0];
      throw new EngineError(`black failed (exit ${run.code}): ${first}`);
    }
    return await Promise.all(paths.map(async (path) => {
      const error = errors.get(path);
      if (error !== undefined) return failed(error);
      return await Deno.readTextFile(path);
    }));
  });
}

/** The black engine. */
export const black: EngineSpec = {
  id: "black",
  tier: "host",
  lintLanguages: [],
  formatLanguages: ["python"],
  capabilities: { lint: false, format: true, fix: false },
  upstream: "black (host)",
  defaultEnabled: true,
  hostProgram: "black",
  batch: { format: true },
  moduleUrls: () => Promise.resolve([]),
  load(): Promise<EngineInstance> {
    const batcher = new Batcher<string>(formatMany);
    return Promise.resolve({
      /** Formats one file; calls made in the same tick share one black process. */
      format: (file: SourceFile, settings: EngineSettings) => batcher.call(file, settings),
      formatMany,
    } as EngineInstance);
  },
};
