/**
 * shellcheck — shell script lint, host tool (`shellcheck -f json1`), with its fixes.
 *
 * - Tier: host (found on PATH; absent → files are skipped with "shellcheck not
 *   found on PATH", never reported clean). Languages: shell (sh, bash, dash, ksh).
 * - Codes are `SC<number>`; levels map error → error, warning → warning,
 *   info → info, style → hint. Each finding links to the shellcheck wiki.
 * - Fixes shellcheck offers are attached as byte-offset edits; `poly lint --fix`
 *   applies them (non-overlapping ones per pass, re-checking until none is left).
 * - `[lint.shell.shellcheck]` keys: `select` / `ignore` (codes, e.g. "SC2086";
 *   passed as `--include` / `--exclude`), `rules.<code>.level`, `shell`
 *   ("sh" | "bash" | "dash" | "ksh"; default from the shebang, else the file
 *   extension), `severity` (minimum level: "error" | "warning" | "info" | "style"),
 *   `enable` (optional checks, e.g. ["require-variable-braces"]), `external_sources`
 *   (follow `source`, -x). The nearest `.shellcheckrc` (lib/config/native/host.ts)
 *   governs (shellcheck takes the first one it finds upward); without one, `--norc`
 *   keeps any other rc file (the user's) out. The repository's pre-commit hook's
 *   flags (`-S`, `-e`, `-i`, `-o`, `-s`: lib/config/native/hook_args.ts) come next,
 *   then poly.toml's keys: command-line flags, which shellcheck applies on top of
 *   the rc file, a later `--severity` winning and the code lists adding up.
 * - Where `source` reaches files outside the inputs ({@link externalSources}), shellcheck
 *   runs in the configuration's folder on the scripts' own paths (a check run) or on
 *   copies below a mirror of it (a fix), so `SCRIPTDIR` and paths from that folder
 *   reach the repository's files, which are then part of a result's cache key
 *   (`_sources.ts`). Otherwise each script is a private copy in a folder of its own,
 *   checked as `shellcheck FILE` checks it, the rc file copied above it.
 * - A script shellcheck cannot parse is an errored record with the line and column
 *   of its parse error.
 * - Batch (`lintMany`, what a check run uses): one process per dialect, a large
 *   group split across the cores; a failing process fails only its own files.
 *
 * Example: `echo $1` → `SC2086 Double quote to prevent globbing and word splitting.`
 * with the fix `echo "$1"`.
 *
 * @module
 */
import type { Diagnostic, Severity } from "../../report/schema.ts";
import { applyRuleSettings } from "../settings.ts";
import { applyEdits, indexToPosition, lineStarts, type TextEdit, utf16ToBytes } from "../text.ts";
import { dirname, isAbsolute, join, posix, relative, sep } from "node:path";
import { ownFileText } from "../../fs/read_log.ts";
import { isInside } from "../../fs/roots.ts";
import { isSourced, sourcesContext } from "./_sources.ts";
import { runHost } from "../host.ts";
import type { ShellcheckHookFlags } from "../../config/native/hook_args.ts";
import { Batcher, withTempFiles } from "../batch.ts";
import {
  EngineError,
  type EngineInstance,
  EngineRefusal,
  type EngineSettings,
  type EngineSpec,
  EngineUnavailableError,
  type LintOutput,
  type SourceFile,
  SourceSyntaxError,
  syntaxDiagnostic,
} from "../types.ts";

interface Replacement {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  replacement: string;
  precedence?: number;
}
interface Comment {
  line: number;
  endLine: number;
  column: number;
  endColumn: number;
  level: string;
  code: number;
  message: string;
  fix: { replacements: Replacement[] } | null;
}

const LEVELS: Record<string, Severity> = { error: "error", warning: "warning", info: "info", style: "hint" };
/**
 * Dialects named by an extension. `.sh` is not among them: without a shebang or a
 * `# shellcheck shell=` directive, shellcheck itself reports SC2148 ("yours is
 * unknown") and checks such a file as bash; passing `--shell=sh` instead reported
 * every bash construct as undefined in POSIX sh and overrode the file's directive.
 */
const SHELLS: Record<string, string> = { bash: "bash", bats: "bash", dash: "dash", ksh: "ksh", mksh: "ksh" };
const FATAL = /Fix to allow more checks|Fix any mentioned problems and try again|Parsing stopped here/;

function codeList(value: unknown): string | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  return value.map((v) => String(v).replace(/^SC/i, "")).join(",");
}

/**
 * The `--shell` dialect for a file: the table's `shell`, else none when it has a
 * shebang or a `.sh` name (shellcheck decides, as its command line does), else its
 * extension's.
 */
export function shellFor(file: SourceFile, settings: EngineSettings): string | undefined {
  if (typeof settings.tool.shell === "string") return settings.tool.shell;
  const hook = settings.native?.options.hook as { shell?: string } | undefined;
  if (hook?.shell) return hook.shell;
  if (file.text.startsWith("#!")) return undefined;
  return SHELLS[file.relPath.split(".").pop()?.toLowerCase() ?? ""];
}

/** shellcheck's arguments for files sharing `shell` (without the file names). */
export function shellcheckArgs(settings: EngineSettings, shell: string | undefined, sourceDir?: string): string[] {
  const args = ["-f", "json1", ...(rcFile(settings) ? [] : ["--norc"])];
  const t = settings.tool;
  if (shell) args.push(`--shell=${shell}`);
  // The repository's pre-commit hook's flags (lib/config/native/hook_args.ts), before poly.toml's: a later flag wins.
  const hook = settings.native?.options.hook as ShellcheckHookFlags | undefined;
  if (hook?.externalSources) args.push("--external-sources");
  for (const path of hook?.sourcePath ?? []) args.push(`--source-path=${path}`);
  if (hook?.severity) args.push(`--severity=${hook.severity}`);
  if (hook?.enable.length) args.push(`--enable=${hook.enable.join(",")}`);
  if (hook?.include.length) args.push(`--include=${codeList(hook.include)}`);
  if (hook?.exclude.length) args.push(`--exclude=${codeList(hook.exclude)}`);
  if (typeof t.severity === "string") args.push(`--severity=${t.severity}`);
  if (Array.isArray(t.enable) && t.enable.length) args.push(`--enable=${t.enable.join(",")}`);
  if (t.external_sources === true) args.push("--external-sources");
  if (sourceDir) args.push(`--source-path=${sourceDir}`);
  const include = codeList(t.select);
  const exclude = codeList(t.ignore);
  if (include) args.push(`--include=${include}`);
  if (exclude) args.push(`--exclude=${exclude}`);
  return args;
}

/** The repository's `.shellcheckrc` governing these settings, if any (see lib/config/native/host.ts). */
function rcFile(settings: EngineSettings): string | undefined {
  return settings.native?.files.at(-1)?.path;
}

/**
 * Whether shellcheck follows `source` to any file that exists (`-x`), not only to the files it was given: poly.toml's
 * `external_sources`, the rc file's `external-sources=true`, or `-x` in `SHELLCHECK_OPTS`. Then what a script sources
 * is read from the repository, at the paths shellcheck resolves from the directory it runs in and the script's own
 * (`SCRIPTDIR`), so poly runs it as one runs it by hand: from the run's root, on the scripts' paths below it.
 */
export function externalSources(settings: EngineSettings): boolean {
  if (settings.tool.external_sources === true) return true;
  if (settings.native?.options["external-sources"] === "true") return true;
  return /(^|\s)(-x|--external-sources)(\s|$)/.test(Deno.env.get("SHELLCHECK_OPTS") ?? "");
}

/**
 * The folder shellcheck runs in when `source` reaches files outside its inputs, as one runs it by hand: the
 * repository's (poly's configuration's folder: the nearest `poly.toml`, else the repository's root), where a path a
 * script sources from the folder shellcheck runs in (`source=lib/common.sh`) is written from; each script's path
 * below it (`/`-separated). Undefined when a file is not below it.
 */
function rootFor(
  files: readonly SourceFile[],
  settings: EngineSettings,
): { root: string; names: string[] } | undefined {
  const root = settings.configDir;
  if (root === undefined) return undefined;
  const names: string[] = [];
  for (const f of files) {
    const rel = relative(root, f.path);
    if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return undefined;
    names.push(rel.split(sep).join("/"));
  }
  return { root, names };
}

/** UTF-16 index of a 1-based line and code-point column (shellcheck json1 counts a tab as one column). */
function cpIndex(text: string, starts: number[], line: number, col: number): number {
  const l = Math.min(Math.max(line - 1, 0), starts.length - 1);
  let i = starts[l];
  for (let c = 1; c < col && i < text.length && text[i] !== "\n"; c++) i += (text.codePointAt(i) ?? 0) > 0xffff ? 2 : 1;
  return i;
}

interface Analysis {
  diagnostics: Diagnostic[];
  /** Fix edits (UTF-16) of each diagnostic that has a fix, keyed by diagnostic. */
  edits: Map<Diagnostic, TextEdit[]>;
}

/** Codes with which shellcheck declines a script it does not check (zsh, fish, an unknown shebang). */
const DECLINED = new Set([1071, 1008]);

function analysis(file: SourceFile, comments: Comment[], settings: EngineSettings): Analysis | Failed {
  const text = file.text;
  const starts = lineStarts(text);
  // Not a dialect shellcheck checks: a skip with shellcheck's own words, not an error finding.
  const declined = comments.find((c) => DECLINED.has(c.code));
  if (declined) {
    return new EngineRefusal(`shellcheck does not check this script: SC${declined.code} ${declined.message}`);
  }
  const edits = new Map<Diagnostic, TextEdit[]>();
  const toDiagnostic = (c: Comment) => {
    const start = indexToPosition(starts, cpIndex(text, starts, c.line, c.column));
    const end = indexToPosition(starts, cpIndex(text, starts, c.endLine, c.endColumn));
    const d: Diagnostic = {
      engine: "shellcheck",
      code: `SC${c.code}`,
      severity: LEVELS[c.level] ?? "warning",
      title: c.message,
      span: { start_line: start.line, start_col: start.col, end_line: end.line, end_col: end.col },
      url: `https://www.shellcheck.net/wiki/SC${c.code}`,
    };
    if (c.fix?.replacements.length) {
      const group = c.fix.replacements.map((r) => ({
        start: cpIndex(text, starts, r.line, r.column),
        end: cpIndex(text, starts, r.endLine, r.endColumn),
        text: r.replacement,
      }));
      const offsets = utf16ToBytes(text, group.flatMap((e) => [e.start, e.end]));
      d.fix = group.map((e, i) => ({ start_byte: offsets[2 * i], end_byte: offsets[2 * i + 1], replacement: e.text }));
      edits.set(d, group);
    }
    return d;
  };
  if (comments.some((c) => FATAL.test(c.message))) {
    // A parse error: the first error of the parser's (SC1xxx) leads, and what shellcheck found besides is reported
    // with it, as its command line reports it; nothing is fixed in a file that does not parse.
    const byPlace = (a: Comment, b: Comment) => a.line - b.line || a.column - b.column;
    const errors = comments.filter((c) => c.level === "error").sort(byPlace);
    const first = errors.find((c) => c.code < 2000) ?? errors[0] ?? comments[0];
    const pos = indexToPosition(starts, cpIndex(text, starts, first.line, first.column));
    const at = { line: pos.line, column: pos.col };
    const rest = comments.filter((c) => c !== first).map(toDiagnostic).map(({ fix: _, ...d }) => d);
    return new SourceSyntaxError([
      syntaxDiagnostic("shellcheck", `SC${first.code}`, first.message, at),
      ...applyRuleSettings(rest, settings),
    ]);
  }
  return { diagnostics: applyRuleSettings(comments.map(toDiagnostic), settings), edits };
}

/** Fewest files for which a dialect group is split across processes (shellcheck uses one core). */
const SPLIT_AT = 32;

/** Why a file has no analysis: it failed, or shellcheck declined it. */
type Failed = EngineError | EngineRefusal;

/**
 * Where shellcheck reads a group of scripts:
 * - `disk`: at their own paths, shellcheck running in the run's root, as one runs it by hand there — a check run's
 *   files (their texts are the files' bytes) where `source` reaches files outside the inputs ({@link externalSources});
 * - `mirror`: private copies at their paths below a private folder that mirrors the root, every other entry of the
 *   folders on their way a link to the repository's ({@link withMirror}) — texts of a fix, under the same rc file;
 * - `copies`: each private copy in a folder of its own, where `source` reaches nothing outside the inputs: each
 *   script is checked on its own, as `shellcheck FILE` checks it, whatever else the batch holds.
 */
type Layout = "disk" | "mirror" | "copies";

/**
 * Checks many files with few shellcheck processes: one per dialect group (and per directory for private copies when
 * `source` follows files outside the inputs and no common root places them), each large group split in as many parts
 * as there are cores, run side by side. A process that fails fails only its own files. `onDisk`: each text is the
 * bytes at its path.
 */
async function analyzeMany(
  files: SourceFile[],
  settings: EngineSettings,
  onDisk = false,
): Promise<(Analysis | Failed)[]> {
  const external = externalSources(settings);
  const placed = external ? rootFor(files, settings) : undefined;
  const layout: Layout = placed === undefined ? "copies" : onDisk ? "disk" : "mirror";
  const groups = new Map<string, number[]>();
  files.forEach((f, i) => {
    const key = `${shellFor(f, settings) ?? ""}|${external && layout === "copies" ? dirname(f.path) : ""}`;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  const lanes = Math.max(1, navigator.hardwareConcurrency ?? 1);
  const jobs: { key: string; indices: number[] }[] = [];
  for (const [key, indices] of groups) {
    const parts = indices.length < SPLIT_AT ? 1 : Math.min(lanes, Math.ceil(indices.length / SPLIT_AT));
    const size = Math.ceil(indices.length / parts);
    for (let at = 0; at < indices.length; at += size) jobs.push({ key, indices: indices.slice(at, at + size) });
  }
  const out = new Array<Analysis | Failed>(files.length);
  const rc = rcFile(settings);
  const run = async ({ key, indices }: { key: string; indices: number[] }) => {
    const [shell, sourceDir] = key.split("|");
    const group = indices.map((i) => files[i]);
    const check = async (cwd: string, paths: string[]) => {
      // A name shellcheck would take for an option (`-x.sh` at the root) is given as a path; its report names it so.
      const names = paths.map((n) => n.startsWith("-") ? `./${n}` : n);
      const run = await runHost("shellcheck", [
        ...shellcheckArgs(settings, shell || undefined, sourceDir || undefined),
        ...names,
      ], { cwd });
      if (run.code > 1 || !run.stdout.trim().startsWith("{")) {
        throw new EngineError(
          `shellcheck failed (exit ${run.code}): ${(run.stderr || run.stdout).trim().split("\n")[0]}`,
        );
      }
      const comments = (JSON.parse(run.stdout) as { comments: (Comment & { file: string })[] }).comments;
      names.forEach((name, j) => {
        out[indices[j]] = analysis(group[j], comments.filter((c) => c.file === name), settings);
      });
    };
    try {
      const names = indices.map((i) => placed?.names[i] ?? "");
      if (layout === "disk") await check(placed!.root, names);
      else if (layout === "mirror") await withMirror(placed!.root, group, names, rc, check);
      else {
        await withTempFiles(group, async (dir, names) => {
          // The private copies sit below `dir`: shellcheck finds this rc file first, as it would beside the scripts.
          if (rc) await Deno.copyFile(rc, `${dir}/.shellcheckrc`);
          await check(dir, names);
        });
      }
    } catch (e) {
      // shellcheck missing stays what it is (a skip); anything else is these files' error.
      if (e instanceof EngineUnavailableError) throw e;
      const error = e instanceof EngineError ? e : new EngineError(e instanceof Error ? e.message : String(e));
      for (const i of indices) out[i] = error;
    }
  };
  if (jobs.length === 1) await run(jobs[0]);
  else {
    const { default: pMap } = await import("p-map");
    await pMap(jobs, run, { concurrency: lanes });
  }
  return out;
}

/**
 * Runs `fn` on a private folder that stands for `root`: each file's text at its path below it (`names`, `/`-separated,
 * as {@link withTempFiles} lays them out), every other entry of the folders on their way a link to the repository's,
 * so what a script sources (from the folder shellcheck runs in or from its own, `SCRIPTDIR`) is the repository's file,
 * and the rc file the repository's. An rc file above the root is copied to the folder's top, where shellcheck's search
 * meets it first.
 */
async function withMirror<R>(
  root: string,
  files: SourceFile[],
  names: string[],
  rc: string | undefined,
  fn: (dir: string, names: string[]) => Promise<R>,
): Promise<R> {
  return await withTempFiles(files, async (dir) => {
    const own = new Set(names);
    const folders = new Set<string>([""]);
    for (const name of names) for (let d = posix.dirname(name); d !== "."; d = posix.dirname(d)) folders.add(d);
    for (const folder of folders) {
      let entries: Deno.DirEntry[];
      try {
        entries = [...Deno.readDirSync(join(root, folder))];
      } catch {
        continue; // a folder gone since the run read its files: nothing of it to source
      }
      for (const entry of entries) {
        const rel = folder ? `${folder}/${entry.name}` : entry.name;
        if (folders.has(rel) || own.has(rel)) continue;
        try {
          Deno.symlinkSync(join(root, rel), join(dir, rel), entry.isDirectory ? { type: "dir" } : undefined);
        } catch {
          // No links here (Windows without the privilege): the entry is not there to source, as if absent.
        }
      }
    }
    if (rc && !isInside(root, rc)) Deno.copyFileSync(rc, join(dir, ".shellcheckrc"));
    return await fn(dir, names);
  }, (_, i) => names[i]);
}

async function analyze(file: SourceFile, settings: EngineSettings): Promise<Analysis> {
  const [result] = await analyzeMany([file], settings);
  if (result instanceof Error) throw result;
  return result;
}

/** Chooses whole fix groups that do not overlap each other. */
export function chooseGroups(groups: TextEdit[][]): { edits: TextEdit[]; count: number } {
  const sorted = groups.map((g) => ({
    g,
    start: Math.min(...g.map((e) => e.start)),
    end: Math.max(...g.map((e) => e.end)),
  }))
    .sort((a, b) => a.start - b.start || a.end - b.end);
  const edits: TextEdit[] = [];
  let cursor = -1;
  let count = 0;
  for (const { g, start, end } of sorted) {
    if (start < cursor) continue;
    edits.push(...g);
    cursor = Math.max(cursor, end);
    count++;
  }
  return { edits, count };
}

/** shellcheck reads extra options from `SHELLCHECK_OPTS` (`-e SC2086`, `-o all`, `--shell`). */
const SHELLCHECK_ENV = ["SHELLCHECK_OPTS"] as const;

/** The shellcheck engine. */
export const shellcheck: EngineSpec = {
  id: "shellcheck",
  tier: "host",
  lintLanguages: ["shell"],
  formatLanguages: [],
  capabilities: { lint: true, format: false, fix: true },
  upstream: "shellcheck (host)",
  defaultEnabled: true,
  hostProgram: "shellcheck",
  hostEnv: SHELLCHECK_ENV,
  batch: { lint: true },
  // Where `source` reaches files outside shellcheck's inputs, a script's findings depend on what it sources
  // (`_sources.ts`): a cached result is kept under those files' bytes, and a change to one of them reaches it.
  cacheContext: (file, settings) => {
    const placed = externalSources(settings) ? rootFor([file], settings) : undefined;
    if (placed === undefined) return Promise.resolve("");
    // A file the stat index knows unchanged comes without its text (lib/run/prepass.ts).
    const text = file.text === "" ? ownFileText(file.path) : file.text;
    const paths = settings.native?.options["source-path"];
    return Promise.resolve(
      sourcesContext(file.path, text, placed.root, Array.isArray(paths) ? paths.map(String) : []),
    );
  },
  contextFiles: (path) => isSourced(path),
  moduleUrls: () => Promise.resolve([]),
  load(): Promise<EngineInstance> {
    const batcher = new Batcher<LintOutput>(async (files, settings) =>
      (await analyzeMany(files, settings)).map((a) => a instanceof Error ? a : { diagnostics: a.diagnostics })
    );
    return Promise.resolve({
      /** Lints one file; calls made in the same tick share one shellcheck process. */
      lint: (file: SourceFile, settings: EngineSettings) => batcher.call(file, settings),
      /** Lints many files with one shellcheck process per dialect. */
      async lintMany(files: SourceFile[], settings: EngineSettings): Promise<(LintOutput | EngineError)[]> {
        return (await analyzeMany(files, settings, true)).map((a) =>
          a instanceof Error ? a : { diagnostics: a.diagnostics }
        );
      },
      async fix(file: SourceFile, settings: EngineSettings) {
        let text = file.text;
        let fixed = 0;
        for (let pass = 0; pass < 5; pass++) {
          const { diagnostics, edits } = await analyze({ ...file, text }, settings);
          const groups = diagnostics.filter((d) => edits.has(d)).map((d) => edits.get(d)!);
          if (groups.length === 0) break;
          const chosen = chooseGroups(groups);
          const next = applyEdits(text, chosen.edits).text;
          if (next === text) break;
          text = next;
          fixed += chosen.count;
        }
        return { text, fixed };
      },
    } as EngineInstance);
  },
};
