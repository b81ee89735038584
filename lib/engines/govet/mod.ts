/**
 * govet — Go lint with `go vet -json`, host tool (the Go toolchain on PATH).
 *
 * - Tier: host (absent → files are skipped with "go not found on PATH", never
 *   reported clean). Languages: Go.
 * - go vet checks a whole package, so poly runs it once per directory: `go vet
 *   -json .` inside a module (a `go.mod` above the file), else on the directory's
 *   non-test `.go` files. One run's findings are shared by every file of that
 *   directory (memoized per process on the directory's file names, sizes and
 *   mtimes). It reads the package from disk and never touches the network
 *   (`GOPROXY=off`, `GOTOOLCHAIN=local`): a module whose dependencies are not in the
 *   module cache is an errored record naming the missing package.
 * - A finding in one file can depend on its package's other files (and, in a
 *   module, on the packages it imports), so a file's cached result is keyed on
 *   the contents of every `.go` file of its module plus `go.mod`/`go.sum` (outside
 *   a module: of its directory) — see {@link goContext}. A source the cache's stat
 *   index knows unchanged since poly last read it is not read again.
 * - Batch (`lintMany`, what a check run uses): every directory of the batch is
 *   vetted once, as many at a time as there are cores.
 * - Codes are analyzer names (`printf`, `assign`, `unreachable`, ...), severity
 *   `error` (go test fails on them); links go to the analyzer's documentation.
 * - `[lint.go.govet]` keys: `select` / `ignore` / `rules.<analyzer>.level`, `tags`
 *   (build tags, a list), `flags` (extra `go vet` arguments, e.g. ["-copylocks=false"]).
 * - A package that does not compile (syntax or type error): the file that holds the
 *   error gets it as a diagnostic (code `compile`, error, with its line and column);
 *   the package's other files are skipped, naming it. Both are cached like findings.
 * - A failure of the whole module (the host Go is older than `go.mod`'s `go`
 *   line, `go.mod` does not parse) is one run-level error naming `go.mod`, the
 *   cause and the fix; the module's files are skipped with a short reason pointing at it.
 * - Modules missing from the module cache (no network here) are an errored record
 *   saying so, never cached.
 *
 * Example: `fmt.Printf("%d", "x")` → `printf fmt.Printf format %d has arg "x" of wrong type string`.
 *
 * @module
 */
import { dirname, isAbsolute, join } from "node:path";
import type { Diagnostic } from "../../report/schema.ts";
import { runHost } from "../host.ts";
import { applyRuleSettings } from "../settings.ts";
import { classifyContent } from "../../discover/content.ts";
import type { FileRecord, ResultCache } from "../../cache/db.ts";
import {
  EngineError,
  type EngineInstance,
  EngineRefusal,
  type EngineSettings,
  type EngineSpec,
  type LintOutput,
  settle,
  type Settled,
  SharedFailure,
  type SourceFile,
  SourceSyntaxError,
  syntaxDiagnostic,
} from "../types.ts";

interface VetFinding {
  file: string;
  line: number;
  /** 1-based UTF-8 byte column. */
  column: number;
  analyzer: string;
  message: string;
}

/** One package run: findings by file, or the compile error that stopped it. */
export interface VetResult {
  findings: VetFinding[];
  failure?: { file?: string; line?: number; column?: number; message: string };
  /** The module root the package belongs to (absent outside a module). */
  module?: string;
}

async function findModuleRoot(dir: string): Promise<string | undefined> {
  for (let d = dir;; d = dirname(d)) {
    try {
      await Deno.stat(join(d, "go.mod"));
      return d;
    } catch {
      if (dirname(d) === d) return undefined;
    }
  }
}

async function dirFingerprint(dir: string): Promise<{ key: string; sources: string[] }> {
  const parts: string[] = [];
  const sources: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (!e.isFile || !e.name.endsWith(".go")) continue;
    const info = await Deno.stat(join(dir, e.name));
    parts.push(`${e.name}:${info.size}:${info.mtime?.getTime()}`);
    if (!e.name.endsWith("_test.go")) sources.push(e.name);
  }
  return { key: dir + "|" + parts.sort().join(","), sources: sources.sort() };
}

/** Parses `go vet -json` stderr: `# pkg` headers, JSON objects, and `vet: file:line:col: msg` errors. */
export function parseVetOutput(stderr: string, cwd: string): VetResult {
  const findings: VetFinding[] = [];
  const seen = new Set<string>();
  const objects: string[] = [];
  let current: string[] | undefined;
  let failure: VetResult["failure"];
  for (const line of stderr.split("\n")) {
    if (current) {
      current.push(line);
      if (line === "}") {
        objects.push(current.join("\n"));
        current = undefined;
      }
    } else if (line === "{") current = [line];
    else {
      const m = /^(?:vet: )?((?:\.{0,2}\/)?[^\s:]+\.go):(\d+):(\d+): (.*)$/.exec(line.trim());
      if (m && !failure) {
        const file = isAbsolute(m[1]) ? m[1] : join(cwd, m[1]);
        failure = { file, line: Number(m[2]), column: Number(m[3]), message: m[4] };
      } else if (!failure && /^(go: |vet: |.*cannot find|.*no required module)/.test(line)) {
        failure = { message: line.trim() };
      } else if (failure && !failure.file && /^go: errors parsing go\.(mod|work):$/.test(failure.message)) {
        // The reasons follow, one per line: `/abs/go.mod:3: invalid go version '1.24.0': must match format 1.23`.
        if (line.trim()) failure.message += ` ${line.trim()}`;
      }
    }
  }
  for (const text of objects) {
    const doc = JSON.parse(text) as Record<string, Record<string, unknown>>;
    for (const analyzers of Object.values(doc)) {
      for (const [analyzer, list] of Object.entries(analyzers)) {
        if (!Array.isArray(list)) {
          const err = (list as { error?: string }).error;
          if (err && !failure) failure = { message: `${analyzer}: ${err}` };
          continue;
        }
        for (const item of list as { posn: string; message: string }[]) {
          const m = /^(.*):(\d+):(\d+)$/.exec(item.posn);
          if (!m) continue;
          const key = `${item.posn}|${analyzer}|${item.message}`;
          if (seen.has(key)) continue;
          seen.add(key);
          const file = isAbsolute(m[1]) ? m[1] : join(cwd, m[1]);
          findings.push({ file, line: Number(m[2]), column: Number(m[3]), analyzer, message: item.message });
        }
      }
    }
  }
  return { findings, failure };
}

function args(settings: EngineSettings): string[] {
  const out = ["vet", "-json"];
  const tags = settings.tool.tags;
  if (Array.isArray(tags) && tags.length) out.push(`-tags=${tags.join(",")}`);
  if (Array.isArray(settings.tool.flags)) out.push(...settings.tool.flags.map(String));
  return out;
}

async function vetDirectory(dir: string, settings: EngineSettings, sources: string[]): Promise<VetResult> {
  const module = await findModuleRoot(dir);
  await hostGoVersion();
  const targets = module ? ["."] : sources;
  const env = { GOPROXY: "off", GOTOOLCHAIN: "local", GOFLAGS: "-mod=readonly" };
  const run = await runHost("go", [...args(settings), ...targets], { cwd: dir, env });
  const result = parseVetOutput(run.stderr, dir);
  if (module) result.module = module;
  if (run.code !== 0 && !result.failure && result.findings.length === 0) {
    result.failure = {
      message: (run.stderr || run.stdout).trim().split("\n").slice(0, 3).join(" ") || `exit ${run.code}`,
    };
  }
  return result;
}

/** UTF-16 column of a 1-based UTF-8 byte column on `line` of `text`. */
function utf16Column(text: string, line: number, byteColumn: number): number {
  const lineText = text.split("\n")[line - 1] ?? "";
  const bytes = new TextEncoder().encode(lineText).subarray(0, Math.max(byteColumn - 1, 0));
  return new TextDecoder().decode(bytes).length + 1;
}

/** The loaded govet engine. */
export class GoVet implements EngineInstance {
  #runs = new Map<string, Promise<VetResult>>();
  /** Per module (and its go.mod's stamp and the arguments): its first run, as a module failure or undefined. */
  #probes = new Map<string, Promise<VetResult | undefined>>();
  /** Test hook: called with the directory of each `go vet` process started. */
  onVet?: (dir: string) => void;

  /** The vet run of `dir` under `settings`, started once per process for the directory's current files. */
  async #vet(dir: string, settings: EngineSettings): Promise<VetResult> {
    const { key, sources } = await dirFingerprint(dir);
    const runKey = key + "|" + JSON.stringify(args(settings));
    let run = this.#runs.get(runKey);
    if (!run) {
      run = this.#probed(dir, settings, sources);
      this.#runs.set(runKey, run);
      run.catch(() => this.#runs.delete(runKey));
    }
    return await run;
  }

  /**
   * {@link vetDirectory}, once its module is known to be readable: the first
   * directory of a module runs alone, and when the host Go cannot read the
   * module's go.mod ({@link goModCause}) that one failure answers every other
   * directory of the module without starting go again (thousands of files, one
   * `go vet`).
   */
  async #probed(dir: string, settings: EngineSettings, sources: string[]): Promise<VetResult> {
    const run = () => (this.onVet?.(dir), vetDirectory(dir, settings, sources));
    const module = await findModuleRoot(dir);
    if (!module) return await run();
    const stamp = await Deno.stat(join(module, "go.mod")).then((i) => `${i.size}:${i.mtime?.getTime()}`, () => "");
    const probeKey = `${module}|${stamp}|${JSON.stringify(args(settings))}`;
    const probe = this.#probes.get(probeKey);
    if (probe) return (await probe) ?? await run();
    const first = run();
    const failed = (r: VetResult) =>
      r.failure && !r.failure.file && goModCause(r.failure.message, module) !== undefined;
    this.#probes.set(probeKey, first.then((r) => failed(r) ? r : undefined, () => undefined));
    return await first;
  }

  /**
   * Lints many files (what a check run uses): each directory is fingerprinted
   * and vetted once, as many side by side as there are cores, and answers all
   * of its files.
   */
  async lintMany(files: SourceFile[], settings: EngineSettings): Promise<Settled<LintOutput>[]> {
    const dirs = [...new Set(files.map((f) => dirname(f.path)))];
    const runs = new Map<string, Settled<VetResult>>();
    const { default: pMap } = await import("p-map");
    await pMap(dirs, async (dir) => {
      runs.set(dir, await this.#vet(dir, settings).catch((e) => e instanceof Error ? e : new Error(String(e))));
    }, { concurrency: Math.max(1, navigator.hardwareConcurrency ?? 1) });
    return files.map((file) => {
      const run = runs.get(dirname(file.path))!;
      return run instanceof Error ? run : settle(() => answer(file, settings, run));
    });
  }

  async lint(file: SourceFile, settings: EngineSettings): Promise<LintOutput> {
    return answer(file, settings, await this.#vet(dirname(file.path), settings));
  }
}

/** One file's result from its directory's vet run: its findings, or the error that stopped the package. */
function answer(file: SourceFile, settings: EngineSettings, result: VetResult): LintOutput {
  const dir = dirname(file.path);
  if (result.failure) {
    const f = result.failure;
    if (f.file === file.path && f.line) {
      const column = utf16Column(file.text, f.line, f.column ?? 1);
      throw new SourceSyntaxError([syntaxDiagnostic("govet", "compile", f.message, { line: f.line, column })]);
    }
    if (f.file) {
      // Another file of the package does not compile: that file reports it; this one was not vetted.
      const where = f.file.startsWith(dir + "/") ? f.file.slice(dir.length + 1) : f.file;
      throw new EngineRefusal(`go vet could not check the package: ${where}:${f.line}:${f.column}: ${f.message}`);
    }
    const shared = moduleFailure(f.message, result.module);
    if (shared) throw shared;
    if (/GOPROXY=off|no required module provides|cannot find module providing|missing go\.sum entry/.test(f.message)) {
      throw new EngineError(
        `go vet needs modules that are not in the module cache (poly never downloads them): ${f.message}; ` +
          "run `go mod download` in the module, then lint again",
      );
    }
    throw new EngineError(`go vet could not check the package: ${f.message}`);
  }
  const diagnostics: Diagnostic[] = result.findings.filter((f) => f.file === file.path).map((f) => {
    const col = utf16Column(file.text, f.line, f.column);
    return {
      engine: "govet",
      code: f.analyzer,
      severity: "error",
      title: f.message,
      span: { start_line: f.line, start_col: col, end_line: f.line, end_col: col },
      url: `https://pkg.go.dev/golang.org/x/tools/go/analysis/passes/${f.analyzer}`,
    };
  });
  return { diagnostics: applyRuleSettings(diagnostics, settings) };
}

/** The host Go's version (`1.19.8`), asked once per process. */
let hostGo: Promise<string | undefined> | undefined;

/** The version of the `go` on PATH, or undefined when it cannot be told. */
export function hostGoVersion(): Promise<string | undefined> {
  hostGo ??= runHost("go", ["env", "GOVERSION"], {}).then(
    (run) => (cachedHostGo = /go(\d+(?:\.\d+)*)/.exec(run.stdout)?.[1]),
    () => undefined,
  );
  return hostGo;
}

/**
 * The cause and the fix of a failure of a whole module rather than of one
 * package: `go.mod` (or `go.work`) that the host Go cannot read — most often a
 * `go` line newer than the host Go (Go 1.21+: "go.mod requires go >= 1.24";
 * older: "invalid go version '1.24.0'", "unknown directive: toolchain").
 * Undefined for any other message. Also used by the whole-project go vet job.
 *
 * @example
 * ```ts
 * goModCause("go: errors parsing go.mod:\n/m/go.mod:3: invalid go version '1.99.0'", "/m");
 * // "go.mod requires go 1.99.0; the host go is 1.19.8: install Go 1.99.0 or newer on PATH (...); go said: ..."
 * ```
 */
export function goModCause(message: string, module: string): string | undefined {
  if (!/errors parsing go\.(mod|work)|go\.(mod|work) requires go|unknown directive: toolchain/.test(message)) {
    return undefined;
  }
  let wanted: string | undefined;
  try {
    wanted = /^go\s+(\S+)/m.exec(Deno.readTextFileSync(join(module, "go.mod")))?.[1];
  } catch {
    // unreadable: the message says what go said
  }
  wanted ??= /requires go >= (\S+)/.exec(message)?.[1];
  const running = /running go (\S+?)[;)]/.exec(message)?.[1] ?? cachedHostGo;
  // What go said, on one line, without its preamble and the absolute path: `go.mod:3: invalid go version ...`.
  const said = message.trim().replace(/^go: (errors parsing go\.(mod|work):\s*)?/, "").replaceAll(module + "/", "")
    .replace(/\s*\n\s*/g, " ");
  const host = running ? `; the host go is ${running}` : ", which the host go cannot read";
  const cause = wanted
    ? `go.mod requires go ${wanted}${host}: install Go ${wanted} or newer on PATH ` +
      `(poly runs go vet with GOTOOLCHAIN=local: it never downloads a toolchain)`
    : "the host go cannot read go.mod: fix go.mod or install a newer Go";
  return `${cause}; go said: ${said}`;
}

/** A module's {@link goModCause} as the failure each of its files meets (reported once for its go.mod). */
function moduleFailure(message: string, module: string | undefined): SharedFailure | undefined {
  const cause = module ? goModCause(message, module) : undefined;
  if (!module || !cause) return undefined;
  return new SharedFailure(
    join(module, "go.mod"),
    `go vet did not run for this module: ${cause}`,
    "go vet did not run for this module: see the error for its go.mod",
  );
}

/** {@link hostGoVersion} once known (read synchronously where a message is built). */
let cachedHostGo: string | undefined;

/** Contexts of the current run, by module or directory root (one run's worth: see {@link goContext}). */
let contexts = {
  run: undefined as string | undefined,
  roots: new Map<string, Promise<string>>(),
  modules: new Map<string, Promise<string | undefined>>(),
};

/**
 * SHA-256 over the names and contents of the Go sources a file's vet result can
 * depend on: every `.go` file (and `go.mod`, `go.sum`) under its module root,
 * or its directory's `.go` files outside a module. Computed once per run (`run`)
 * per module or directory; without a run id, every call looks again.
 *
 * Each source counts by the digest the pre-pass gives its text
 * ({@link sourceDigest}): taken from `index` (the cache's stat index) when the
 * file's stamp has not moved since poly last read it — so a warm run reads none
 * of them —, else from reading it now.
 */
export async function goContext(file: SourceFile, run?: string, index?: ResultCache): Promise<string> {
  const dir = dirname(file.path);
  if (run === undefined || contexts.run !== run) contexts = { run, roots: new Map(), modules: new Map() };
  const modules = contexts.modules;
  const module = await (modules.get(dir) ?? modules.set(dir, findModuleRoot(dir)).get(dir)!);
  const root = module ?? dir;
  const roots = contexts.roots;
  let context = roots.get(root);
  if (!context) {
    context = (async () => {
      const sources: { name: string; path: string }[] = [];
      const walk = async (at: string, rel: string, deep: boolean): Promise<void> => {
        const entries = (await Array.fromAsync(Deno.readDir(at))).sort((a, b) => a.name < b.name ? -1 : 1);
        for (const e of entries) {
          const path = join(at, e.name);
          const name = rel ? `${rel}/${e.name}` : e.name;
          if (e.isFile && (e.name.endsWith(".go") || (!rel && (e.name === "go.mod" || e.name === "go.sum")))) {
            sources.push({ name, path });
          } else if (deep && e.isDirectory && !e.name.startsWith(".") && e.name !== "testdata") {
            await walk(path, name, deep);
          }
        }
      };
      await walk(root, "", module !== undefined);
      const { digestOf } = await import("../../cache/digest.ts");
      const { sameStamp, stampOf } = await import("../../cache/db.ts");
      const known = index?.enabled ? index.files(sources.map((s) => s.path)) : new Map<string, FileRecord>();
      const lines: string[] = [];
      for (const { name, path } of sources) {
        const record = known.get(path);
        let digest: string | undefined;
        if (record) {
          try {
            if (sameStamp(record, stampOf(Deno.statSync(path)))) digest = record.digest;
          } catch {
            // gone: the read below says so
          }
        }
        digest ??= sourceDigest(await Deno.readFile(path), digestOf);
        lines.push(`${name}\0${digest}`);
      }
      return digestOf(lines.join("\n"));
    })();
    roots.set(root, context);
    context.catch(() => roots.delete(root));
  }
  return await context;
}

/**
 * The digest of one Go source in {@link goContext}: of its text as the pre-pass
 * decodes it (what the stat index records), or of its bytes, tagged, when it is
 * not text.
 */
function sourceDigest(bytes: Uint8Array, digest: (data: string | Uint8Array) => string): string {
  const classified = classifyContent(bytes, Number.MAX_SAFE_INTEGER);
  return "text" in classified ? digest(classified.text) : `bytes:${digest(bytes)}`;
}

/** What go vet builds and checks follows these: build tags and flags, the target platform, cgo. */
const GO_ENV = ["GOFLAGS", "GOOS", "GOARCH", "CGO_ENABLED"] as const;

/** The govet engine. */
export const govet: EngineSpec = {
  id: "govet",
  tier: "host",
  lintLanguages: ["go"],
  formatLanguages: [],
  capabilities: { lint: true, format: false, fix: false },
  upstream: "go vet (host)",
  defaultEnabled: true,
  hostProgram: "go",
  hostEnv: GO_ENV,
  batch: { lint: true },
  moduleUrls: () => Promise.resolve([]),
  cacheContext: (file, _settings, run, index) => goContext(file, run, index),
  contextFiles: (path) => /(\.go|\/go\.(mod|sum|work))$/.test(path),
  load: () => Promise.resolve(new GoVet()),
};
