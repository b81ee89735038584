/**
 * eslint — JavaScript and TypeScript lint where the repository lints with ESLint: the repository's own ESLint (from its
 * `node_modules`), under its own configuration, run by `node` inside bubblewrap.
 *
 * - Tier: host (`node` and `bwrap` on PATH, and the repository's dependencies installed). Languages: JavaScript,
 *   TypeScript, and Vue, Svelte and Astro files (what the configuration's plug-ins lint). It lints where an ESLint
 *   configuration governs (lib/config/native/eslint.ts) and no biome file of biome's own, oxlint file or `deno.json`
 *   lint does, in biome's place (lib/run/plan.ts); `[tools.eslint] enabled = false` hands the files back to biome.
 * - ESLint's configuration is a program (plug-ins, shared configurations, the repository's own modules), so it runs
 *   confined (lib/sandbox): the system read-only, the repository (the nearest folder up with a `.git`) and the folder
 *   whose `node_modules` holds ESLint read-only, an empty home, poly's own state and cache hidden, no network, a private `/tmp`; it dies with poly
 *   and within the host-tool timeout. Without bubblewrap, `node`, or an `eslint` package resolvable from the
 *   configuration's folder, the files are skipped saying which, never linted by biome under rules the project did not
 *   choose.
 * - One `node` process per batch (lib/engines/eslint/_runner.ts): the ESLint the configuration's folder resolves, flat or
 *   legacy configuration as its own command line picks, each file's text as poly read it linted under its path
 *   (`lintText`). Codes are ESLint's rule ids (`no-unused-vars`, `@typescript-eslint/no-explicit-any`); its severity 2 →
 *   error, 1 → warning; a file ESLint cannot parse is an errored record at its line and column; a file its
 *   configuration ignores is skipped saying so. `rules.<id>.level` in `[lint.<lang>.eslint]` re-levels or turns off.
 * - Fix (`poly lint --fix`): ESLint's own fixes (`fix: true`), counted as the findings they removed.
 * - Cached results are keyed by the file, the configuration file's hash, the ESLint version, the repository's
 *   lockfile and the contents of the repository's own modules the configuration loads (a local plug-in's rules, a
 *   shared configuration kept in the repository: _local.ts), where ESLint's own `--cache` keys by the file and its
 *   configuration file alone.
 *
 * Example: `const unused = 1;` under `no-unused-vars` → `no-unused-vars 'unused' is assigned a value but never used.`
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import { cacheHome, env, stateHome } from "../../paths/mod.ts";
import {
  binaryDirsFor,
  bwrapArgs,
  findExecutable,
  PASSTHROUGH_ENV,
  polyHomes,
  systemEntries,
  workspaceHoldsHome,
} from "../../sandbox/mod.ts";
import type { Diagnostic, Severity } from "../../report/schema.ts";
import { digestOf } from "../../cache/digest.ts";
import { runHost } from "../host.ts";
import { Batcher, type Settled } from "../batch.ts";
import { applyRuleSettings } from "../settings.ts";
import {
  EngineError,
  EngineRefusal,
  type EngineSettings,
  type EngineSpec,
  EngineUnavailableError,
  type FixOutput,
  type LintOutput,
  type SourceFile,
  SourceSyntaxError,
} from "../types.ts";
import { RUNNER } from "./_runner.ts";
import { localModules } from "./_local.ts";
import { type EslintRunner, eslintRunner, MANIFEST_RUNNERS, runnerName } from "../../config/native/eslint.ts";

/**
 * What the eslint engine passes into its sandbox from poly's environment: `ESLINT_USE_FLAT_CONFIG` (`false` makes
 * ESLint 8.57 and 9 read a legacy `.eslintrc*`, as a repository's `lint` script sets it), part of the cache key.
 */
const ESLINT_ENV = ["ESLINT_USE_FLAT_CONFIG"] as const;

/** The lockfiles whose hash stands for the installed plug-ins' versions, in the order looked for. */
const LOCKFILES = ["package-lock.json", "pnpm-lock.yaml", "yarn.lock", "bun.lock", "bun.lockb", "npm-shrinkwrap.json"];

interface EslintMessage {
  ruleId: string | null;
  severity: number;
  message: string;
  fatal?: boolean;
  line?: number;
  column?: number;
  endLine?: number;
  endColumn?: number;
}

interface RunnerResult {
  messages?: EslintMessage[];
  output?: string;
  remaining?: number;
  /** With fixes: the findings left in the fixed text (ESLint's own lint of its output). */
  fixedMessages?: EslintMessage[];
  /** xo ignored the file (it says so with no message). */
  ignored?: boolean;
  error?: string;
}

interface RunnerOutput {
  version?: string;
  missing?: string;
  failed?: string;
  results?: RunnerResult[];
}

/** The folder whose `node_modules` holds `tool` (`eslint`, `xo`), from `root` up (as Node resolves it), or undefined. */
async function installedAt(root: string, tool: EslintRunner): Promise<string | undefined> {
  for (let dir = root;; dir = dirname(dir)) {
    try {
      await Deno.stat(join(dir, "node_modules", tool, "package.json"));
      return dir;
    } catch {
      // not here
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The folder the sandbox shows: the repository holding `root` (the nearest folder up with a `.git`: a monorepo
 * package's configuration reads the root's `tsconfig` and modules), or `root` itself outside one.
 */
async function repositoryOf(root: string): Promise<string> {
  for (let dir = root;; dir = dirname(dir)) {
    if (await Deno.lstat(join(dir, ".git")).then(() => true, () => false)) return dir;
    if (dirname(dir) === dir) return root;
  }
}

/** The configuration's folder of `settings` (where ESLint's own command line would run). */
function rootOf(settings: EngineSettings): string {
  const root = settings.native?.root;
  if (!root) throw new EngineError("eslint lints only where an ESLint configuration governs (none was found)");
  return root;
}

/** The layer's runner: ESLint itself, xo, standard or semistandard (lib/config/native/eslint.ts). */
function toolOf(settings: EngineSettings): EslintRunner {
  return eslintRunner(settings.native);
}

/** Why `tool` cannot run for the configuration at `root` when it is not installed there, and how to install it. */
function notInstalled(root: string, tool: EslintRunner): { missing: string; install: string } {
  return {
    missing: `${runnerName(tool)} is not installed here (no node_modules/${tool} from ${root} up)`,
    install: "install the repository's dependencies (npm install, pnpm install, yarn, bun install)",
  };
}

/** The bwrap command line that runs the runner for the configuration at `root`, confined (see the module doc). */
async function sandboxed(root: string, tool: EslintRunner): Promise<string[]> {
  const home = env("HOME") ?? "/nonexistent";
  const installed = await installedAt(root, tool);
  if (!installed) {
    const { missing, install } = notInstalled(root, tool);
    throw new EngineUnavailableError(`${missing}: ${install}`);
  }
  const repository = await repositoryOf(root);
  for (const dir of [repository, installed]) {
    if (workspaceHoldsHome(dir, home)) {
      throw new EngineUnavailableError(
        `${runnerName(tool)} would run with ${dir} visible, which holds the home directory: poly does not run it there`,
      );
    }
  }
  const path = env("PATH") ?? "/usr/local/bin:/usr/bin:/bin";
  const node = findExecutable("node", path);
  if (!node) throw new EngineUnavailableError("node not found on PATH");
  const system = await systemEntries();
  const binds = [...new Set([...binaryDirsFor([node, await Deno.realPath(node)], system), installed])]
    .map((p) => ({ path: p, rw: false }));
  // CACHE_DIR: where packages that use find-cache-dir write (xo's generated tsconfig for a file its project's does not
  // include, ESLint's cache file), in the private /tmp, since the node_modules they would write in are read-only.
  const vars: Record<string, string> = { PATH: path, HOME: home, TMPDIR: "/tmp", LANG: "C.UTF-8", CACHE_DIR: "/tmp" };
  for (const name of [...PASSTHROUGH_ENV, ...ESLINT_ENV]) {
    const v = env(name);
    if (v !== undefined) vars[name] = v;
  }
  const args = bwrapArgs({
    home,
    system,
    binds,
    workspace: repository,
    readOnly: true,
    hide: await polyHomes([stateHome(), cacheHome()]),
    env: vars,
    offline: true,
  });
  // The runner is an ES module given as a data: URL, not with `--input-type=module -e`: node's workers inherit its
  // options, and one whose entry is an ES module refuses `--input-type` (xo 1's TypeScript checks start such a worker).
  return [...args, "--", "node", "-e", RUN_MODULE, `data:text/javascript,${encodeURIComponent(RUNNER)}`];
}

/** What `node -e` runs: the module its first argument names (the runner), exiting 1 with what went wrong. */
const RUN_MODULE = "import(process.argv[1]).catch((e) => { console.error(e); process.exit(1); })";

/**
 * At most this much text per process (UTF-16 code units): a monorepo's files go to ESLint in parts, each under the
 * host-tool timeout and the memory one JSON document of their texts takes, each part paying ESLint's load once.
 */
const CHUNK_TEXT = 16 * 1024 * 1024;

/** Runs the repository's ESLint over `files` (one configuration), a part at a time: each file's result. */
async function runEslint(
  files: SourceFile[],
  settings: EngineSettings,
  fix: boolean,
): Promise<(RunnerResult | undefined)[]> {
  const out: (RunnerResult | undefined)[] = [];
  for (let start = 0; start < files.length;) {
    let end = start;
    for (let size = 0; end < files.length && (end === start || size + files[end].text.length <= CHUNK_TEXT); end++) {
      size += files[end].text.length;
    }
    const part = files.slice(start, end);
    const answer = await runPart(part, settings, fix);
    out.push(...part.map((_, i) => answer.results?.[i]));
    start = end;
  }
  return out;
}

/** Runs the repository's ESLint over `files` in one confined process: the runner's answer. */
async function runPart(files: SourceFile[], settings: EngineSettings, fix: boolean): Promise<RunnerOutput> {
  const root = rootOf(settings);
  const tool = toolOf(settings);
  const args = await sandboxed(root, tool);
  const stdin = JSON.stringify({ root, tool, fix, files: files.map((f) => ({ path: f.path, text: f.text })) });
  let run;
  try {
    run = await runHost("bwrap", args, { stdin, cwd: root, name: "eslint" });
  } catch (e) {
    if (e instanceof EngineUnavailableError && /bwrap/.test(e.message)) {
      throw new EngineUnavailableError(
        `${
          runnerName(tool)
        } runs the repository's own code, which poly runs only inside bubblewrap: bwrap not found on PATH ` +
          "(Debian and Ubuntu: apt install bubblewrap)",
      );
    }
    throw e;
  }
  let out: RunnerOutput;
  try {
    out = JSON.parse(run.stdout) as RunnerOutput;
  } catch {
    const said = run.stderr.trim().split("\n").filter((l) => l.trim() !== "").slice(0, 3).join(" ") ||
      `exit ${run.code}`;
    throw new EngineError(`${tool} failed: ${said}`);
  }
  if (out.missing !== undefined) {
    throw new EngineUnavailableError(`${runnerName(tool)} is not installed for ${root}: ${out.missing}`);
  }
  if (out.failed !== undefined) {
    throw new EngineError(`${runnerName(tool)} could not load its configuration: ${out.failed}`);
  }
  return out;
}

function toDiagnostic(m: EslintMessage): Diagnostic {
  const line = Math.max(m.line ?? 1, 1);
  const col = Math.max(m.column ?? 1, 1);
  return {
    engine: "eslint",
    ...(m.ruleId ? { code: m.ruleId } : {}),
    severity: (m.severity === 2 ? "error" : "warning") as Severity,
    title: m.message,
    span: {
      start_line: line,
      start_col: col,
      end_line: Math.max(m.endLine ?? line, 1),
      end_col: Math.max(m.endColumn ?? col, 1),
    },
  };
}

/** One file's outcome from the runner's result for it. */
function outcome(result: RunnerResult | undefined, settings: EngineSettings): LintOutput | Error {
  const tool = toolOf(settings);
  if (!result) return new EngineError(`${tool} gave no result for this file`);
  if (result.error !== undefined) return new EngineError(result.error);
  const messages = result.messages ?? [];
  const ignored = result.ignored ||
    messages.some((m) => m.ruleId === null && !m.fatal && /^File ignored\b/.test(m.message));
  if (ignored) {
    const file = settings.native?.files[0]?.path;
    return new EngineRefusal(
      `ignored by ${runnerName(tool)}'s configuration${file ? ` (${file.slice(file.lastIndexOf("/") + 1)})` : ""}`,
    );
  }
  const fatal = messages.find((m) => m.fatal);
  if (fatal) return new SourceSyntaxError([{ ...toDiagnostic(fatal), code: "syntax", severity: "error" }]);
  return { diagnostics: applyRuleSettings(messages.map(toDiagnostic), settings) };
}

/** Lints many files sharing one configuration: one confined `node` process. */
async function lintMany(files: SourceFile[], settings: EngineSettings): Promise<Settled<LintOutput>[]> {
  const results = await runEslint(files, settings, false);
  return files.map((_, i) => outcome(results[i], settings));
}

/**
 * Fixes many files sharing one configuration: each file's text after ESLint's fixes, how many it made, and the findings
 * left in the fixed text (ESLint's lint of its output, as `lint` would give them).
 */
async function fixMany(files: SourceFile[], settings: EngineSettings): Promise<Settled<FixOutput>[]> {
  const results = await runEslint(files, settings, true);
  return files.map((f, i) => {
    const r = results[i];
    const linted = outcome(r, settings);
    if (linted instanceof Error) return linted;
    const after = r?.fixedMessages ? outcome({ ...r, messages: r.fixedMessages }, settings) : undefined;
    const lint = after instanceof Error ? {} : after ? { lint: after } : {};
    const text = r?.output ?? f.text;
    if (text === f.text) return { text, fixed: 0, ...lint };
    return { text, fixed: Math.max((r?.messages?.length ?? 0) - (r?.remaining ?? 0), 1), ...lint };
  });
}

/** {@link identity}'s answers for the run `run` (a resident process keeps only its latest run's). */
let identities = { run: "", byRoot: new Map<string, Promise<string>>() };

/** The repository's modules some configuration loaded in the latest run ({@link identity}), for `contextFiles`. */
const localPaths = new Set<string>();

/**
 * What besides the file and the configuration decides ESLint's findings, for cache keys: the ESLint version installed
 * for the configuration's folder, the hash of the nearest lockfile (the plug-ins' versions) and that of the
 * repository's own modules the configuration loads (_local.ts). Once per folder and run.
 */
function identity(settings: EngineSettings, run: string): Promise<string> {
  const root = rootOf(settings);
  if (identities.run !== run) {
    identities = { run, byRoot: new Map() };
    localPaths.clear();
  }
  let found = identities.byRoot.get(root);
  if (!found) {
    found = (async () => {
      const configs = (settings.native?.files ?? []).map((f) => f.path);
      const local = await localModules(configs, await repositoryOf(root));
      for (const path of local.paths) localPaths.add(path);
      return `${await installed(root, toolOf(settings))}${local.digest ? ` local ${local.digest.slice(0, 16)}` : ""}`;
    })();
    identities.byRoot.set(root, found);
  }
  return found;
}

/** The version of `tool` installed for `root` and the nearest lockfile's name and hash. */
async function installed(root: string, tool: EslintRunner): Promise<string> {
  const at = await installedAt(root, tool);
  let version = "none";
  if (at) {
    try {
      version = String(JSON.parse(await Deno.readTextFile(join(at, "node_modules", tool, "package.json"))).version);
    } catch {
      version = "unreadable";
    }
  }
  for (let dir = root;; dir = dirname(dir)) {
    for (const name of LOCKFILES) {
      const bytes = await Deno.readFile(join(dir, name)).catch(() => undefined);
      if (bytes) return `${tool} ${version} ${name} ${digestOf(bytes).slice(0, 16)}`;
    }
    if (dirname(dir) === dir) return `${tool} ${version} no lockfile`;
  }
}

/** The eslint engine. */
export const eslint: EngineSpec = {
  id: "eslint",
  tier: "host",
  lintLanguages: ["javascript", "typescript", "vue", "svelte", "astro"],
  formatLanguages: [],
  capabilities: { lint: true, format: false, fix: true },
  upstream: "ESLint (the repository's own, run by node inside bubblewrap)",
  defaultEnabled: false,
  hostProgram: "node",
  hostEnv: ESLINT_ENV,
  batch: { lint: true, fix: true },
  moduleUrls: () => Promise.resolve([]),
  cacheContext: (_file, settings, run) => identity(settings, run ?? ""),
  contextFiles: (path) =>
    LOCKFILES.includes(basename(path)) || path.endsWith(join("node_modules", "eslint", "package.json")) ||
    MANIFEST_RUNNERS.some((tool) => path.endsWith(join("node_modules", tool, "package.json"))) ||
    localPaths.has(path),
  async unavailable(settings) {
    if (!findExecutable("bwrap")) {
      return {
        missing: `bwrap is not on PATH (${
          runnerName(toolOf(settings))
        } runs the repository's own code, which poly runs only inside bubblewrap)`,
        install: "apt install bubblewrap (Debian, Ubuntu)",
      };
    }
    const root = settings.native?.root;
    const tool = toolOf(settings);
    if (root && !(await installedAt(root, tool))) return notInstalled(root, tool);
    return undefined;
  },
  load() {
    const linting = new Batcher<LintOutput>(lintMany);
    const fixing = new Batcher<FixOutput>(fixMany);
    return Promise.resolve({
      /** Lints one file; calls made in the same tick with equal settings share one process. */
      lint: (file: SourceFile, settings: EngineSettings) => linting.call(file, settings),
      lintMany,
      fixMany,
      /** Fixes one file; calls made in the same tick with equal settings share one process. */
      fix: (file: SourceFile, settings: EngineSettings) => fixing.call(file, settings),
    });
  },
};
