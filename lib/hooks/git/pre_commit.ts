/**
 * `poly hooks run pre-commit`: lint and format-check what is about to be
 * committed — the STAGED content, not the working tree.
 *
 * The staged files (and the configuration files poly reads: every tracked
 * `*.toml`, `*.yml`/`*.yaml`, `.gitignore`, `poly-config.lock` and everything
 * under `.poly/`) are exported from the index into a temporary directory with
 * `git checkout-index`; `runLint` and `runFmt` (check mode, no cache) run there on
 * the staged paths. POLY_PRE_COMMIT_EXPORT=all exports the whole index instead,
 * for configurations that reference other files.
 *
 * The commit is blocked (non-zero exit) when a run errored (exit 2), or when lint
 * found error-severity diagnostics or a staged file is not formatted (exit 1).
 * Files poly has no engine for are skipped and reported, not blocked on.
 *
 * @module
 */
import { join } from "node:path";
import type { Report } from "../../report/schema.ts";
import type { CommandIO } from "../../io/mod.ts";
import { ExitCode } from "../../errors/mod.ts";
import { gitOk, indexEntries, stagedPaths, topLevel } from "./_git.ts";
import { makeTempDir, removeTemp } from "../../fs/temp.ts";

/** Options of {@link runPreCommit}. */
export interface PreCommitOptions {
  /** Where git runs the hook (the work tree's top). */
  cwd: string;
  /** Export the whole index, not only staged and configuration files. */
  exportAll?: boolean;
  /** Colour in the printed reports. */
  color?: boolean;
}

/** What the check found; `code` is the hook's exit code. */
export interface PreCommitOutcome {
  code: number;
  staged: string[];
  lint?: Report;
  fmt?: Report;
  /** Why the commit is blocked, when it is. */
  reason?: string;
  /** The human reports worth printing (those with findings, drift or errors). */
  human: string;
}

const SUPPORT_FILE = /(^|\/)(\.gitignore|poly-config\.lock|[^/]*\.toml|[^/]*\.ya?ml)$|(^|\/)\.poly\//;
const GITLINK = "160000";

/** The paths to export: staged ones plus the configuration files poly reads (or everything). */
export function exportSet(index: { mode: string; path: string }[], staged: string[], all: boolean): string[] {
  const paths = new Set<string>();
  const stagedSet = new Set(staged);
  for (const entry of index) {
    if (entry.mode === GITLINK) continue;
    if (all || stagedSet.has(entry.path) || SUPPORT_FILE.test(entry.path)) paths.add(entry.path);
  }
  return [...paths].sort();
}

/** Decides whether the reports block the commit. Skips do not block: a commit of files poly has no engine for is fine. */
export function gate(lint: Report, fmt: Report): { code: number; reason?: string } {
  const failed = new Set(
    [lint, fmt].flatMap((
      r,
    ) => [...r.errors.map((e) => e.path), ...r.results.filter((x) => x.error).map((x) => x.path)]),
  );
  if (failed.size > 0) return { code: ExitCode.Incomplete, reason: `${failed.size} file(s) could not be checked` };
  const reasons: string[] = [];
  const diagnostics = lint.results.reduce(
    (n, r) => n + (r.diagnostics?.filter((d) => d.severity === "error").length ?? 0),
    0,
  );
  if (diagnostics > 0) reasons.push(`${diagnostics} error-severity lint finding(s)`);
  const changed = fmt.results.filter((r) => r.changed).length;
  if (changed > 0) reasons.push(`${changed} file(s) not formatted`);
  return reasons.length > 0 ? { code: ExitCode.Findings, reason: reasons.join(", ") } : { code: ExitCode.Clean };
}

function hasFindings(report: Report): boolean {
  return report.errors.length > 0 ||
    report.results.some((r) => (r.diagnostics?.length ?? 0) > 0 || r.changed || r.error);
}

/** Runs the check on the staged content; `human` holds the reports worth printing (rendered while the export exists). */
export async function checkStaged(options: PreCommitOptions): Promise<PreCommitOutcome> {
  const top = await topLevel(options.cwd);
  const staged = await stagedPaths(top);
  const index = await indexEntries(top);
  const inIndex = new Set(index.filter((e) => e.mode !== GITLINK).map((e) => e.path));
  const files = staged.filter((p) => inIndex.has(p));
  if (files.length === 0) return { code: ExitCode.Clean, staged: [], human: "" };

  const tmp = await makeTempDir("poly-pre-commit-");
  try {
    const list = exportSet(index, files, options.exportAll ?? false);
    await gitOk(["checkout-index", "-z", "--stdin", `--prefix=${tmp}/`], top, list.join("\0") + "\0");
    // A `.git` entry makes the export its own repository anchor: config lookup stops here.
    await Deno.mkdir(join(tmp, ".git"));
    const { runFmt, runLint } = await import("../../run/mod.ts");
    const { encodeReport } = await import("../../report/mod.ts");
    // The hook is a process of its own (`poly hooks run`): its main thread has nothing else to do.
    const lint = await runLint({ paths: files, cwd: tmp, noCache: true, oneShot: true });
    const fmt = await runFmt({ paths: files, cwd: tmp, noCache: true, oneShot: true });
    const encode = (r: Report) => encodeReport(r, "human", { color: options.color ?? false, cwd: tmp });
    const human = [lint, fmt].filter(hasFindings).map(encode).join("");
    return { ...gate(lint, fmt), staged: files, lint, fmt, human };
  } finally {
    await removeTemp(tmp);
  }
}

/** The hook: checks, prints the human reports and the verdict on stderr, returns the exit code. */
export async function runPreCommit(options: PreCommitOptions, io: CommandIO): Promise<number> {
  const outcome = await checkStaged(options);
  if (!outcome.lint || !outcome.fmt) return outcome.code;
  if (outcome.human) await io.stderr(outcome.human);
  const checked = Math.max(outcome.lint.summary.checked, outcome.fmt.summary.checked);
  const skipped = new Set([...outcome.lint.skipped, ...outcome.fmt.skipped].map((s) => s.path)).size;
  if (outcome.code !== ExitCode.Clean) {
    await io.stderr(
      `poly pre-commit: commit blocked: ${outcome.reason}. The check reads the STAGED content: fix the files, ` +
        `git add them and commit again (git commit --no-verify skips the check once).\n`,
    );
  } else {
    const skipNote = skipped > 0 ? `, ${skipped} skipped (no engine for them)` : "";
    await io.stderr(`poly pre-commit: ${checked} staged file(s) checked${skipNote}.\n`);
  }
  return outcome.code;
}
