/**
 * rustfmt — Rust formatting, host tool (`rustfmt` on PATH, usually from rustup),
 * fed the file on stdin: `rustfmt --emit stdout --edition 2021`.
 *
 * - Tier: host (absent → files are skipped with "rustfmt not found on PATH",
 *   never reported as formatted). Languages: Rust (format only; clippy runs in the
 *   whole-project phase).
 * - A file in no crate (no `Cargo.toml` with a `[package]` above it) and under
 *   no rustfmt file takes `[defaults]`: `line_length` → `max_width`,
 *   `indent_width` → `tab_spaces`, `line_ending` → `newline_style` (Unix /
 *   Windows / Auto); `final_newline` is applied to the output. A crate's file
 *   takes rustfmt's defaults, as `cargo fmt` formats it ({@link ownStyle}).
 * - `[fmt.rust.rustfmt]` keys: `edition` ("2015" | "2018" | "2021" | "2024",
 *   default "2021"), `style_edition`, and any other rustfmt option as written in
 *   `rustfmt.toml` (e.g. `hard_tabs = true`, `use_small_heuristics = "Max"`),
 *   passed with `--config`.
 * - The repository's nearest `.rustfmt.toml` / `rustfmt.toml` governs
 *   (lib/config/native/host.ts; given with `--config-path`, so rustfmt reads it
 *   itself): rustfmt's defaults fill what it leaves unset and `[defaults]` do
 *   not apply; poly.toml's keys apply on top. The edition is poly.toml's, else
 *   the file's, else the nearest `Cargo.toml` package's (as `cargo fmt` passes
 *   it), else 2021. Without a file, an empty one is given, so no other file
 *   (the user's) is read.
 * - A syntax error is an errored record with rustfmt's line and column.
 * - The toolchain: rustup's `rustfmt` runs the toolchain the working directory
 *   picks, so rustfmt runs in the folder of the repository's nearest
 *   `rust-toolchain` / `rust-toolchain.toml` (as `cargo fmt` in the crate
 *   would), else in a private folder (rustup's default, or `RUSTUP_TOOLCHAIN`);
 *   a toolchain that is not installed is an error naming it, never a download
 *   in the middle of a run (`RUSTUP_AUTO_INSTALL=0`).
 * - Batching: a run hands {@link formatMany} all its files per settings, which
 *   formats them with one rustfmt process (starting rustfmt through rustup's
 *   proxy costs ~100 ms a file); `format` batches calls made in the same tick.
 *
 * Example: `fn main(){let x=1;}` → `fn main() {\n    let x = 1;\n}`.
 *
 * @module
 */
import { basename, dirname, join, normalize, relative } from "node:path";
import { RUSTFMT_FILES, TOOLCHAIN_FILES } from "../../config/native/host.ts";
import { finishText } from "../layout.ts";
import { runHost } from "../host.ts";
import { UNIFORM_KEYS } from "../settings.ts";
import { Batcher, type Settled, withTempFiles } from "../batch.ts";
import {
  EngineError,
  type EngineInstance,
  EngineRefusal,
  type EngineSettings,
  type EngineSpec,
  type SourceFile,
  SourceSyntaxError,
  syntaxDiagnostic,
} from "../types.ts";
import { makeTempDir, removeTemp } from "../../fs/temp.ts";

function tomlValue(v: unknown): string {
  return typeof v === "string" ? v : String(v);
}

/** The repository's rustfmt config file governing these settings, if any (not its Cargo.toml). */
export function rustfmtFile(settings: EngineSettings): string | undefined {
  return settings.native?.files.find((f) => RUSTFMT_FILES.includes(basename(f.path) as typeof RUSTFMT_FILES[number]))
    ?.path;
}

/**
 * Whether the repository's own style governs these settings: its rustfmt file, or else the `Cargo.toml` of the crate
 * the file is in, which `cargo fmt` formats with rustfmt's defaults (width 100, 4 spaces, `newline_style = "Auto"`)
 * where the crate keeps no rustfmt file. Only a Rust file in no crate takes `[defaults]`.
 */
export function ownStyle(settings: EngineSettings): boolean {
  const files = settings.native?.files ?? [];
  return rustfmtFile(settings) !== undefined || files.some((f) => basename(f.path) === "Cargo.toml");
}

/** The folder of the repository's toolchain file governing these settings, where rustfmt runs; if any. */
export function toolchainDir(settings: EngineSettings): string | undefined {
  const file = settings.native?.files.find((f) =>
    TOOLCHAIN_FILES.includes(basename(f.path) as typeof TOOLCHAIN_FILES[number])
  );
  return file ? dirname(file.path) : undefined;
}

/** rustup installs no toolchain mid-run: a missing one is rustfmt's error, naming it. */
const RUSTFMT_RUN_ENV = { RUSTUP_AUTO_INSTALL: "0" };

/** rustfmt's arguments for one file's settings (without `--config-path`). */
export function rustfmtArgs(settings: EngineSettings): string[] {
  const d = settings.defaults;
  const edition = tomlValue(settings.tool.edition ?? settings.native?.options.edition ?? "2021");
  // Under the repository's own style, rustfmt's defaults fill what its file leaves unset: `--config` would override it.
  const config: Record<string, unknown> = ownStyle(settings) ? {} : {
    max_width: d.line_length,
    newline_style: d.line_ending === "crlf" ? "Windows" : d.line_ending === "auto" ? "Auto" : "Unix",
    ...(d.indent_width ? { tab_spaces: d.indent_width } : {}),
  };
  for (const [k, v] of Object.entries(settings.tool)) if (!UNIFORM_KEYS.has(k) && k !== "edition") config[k] = v;
  const list = Object.entries(config).map(([k, v]) => `${k}=${tomlValue(v)}`).join(",");
  return ["--emit", "stdout", "--edition", edition, ...(list ? ["--config", list] : [])];
}

/** rustfmt's output: as it is under the repository's own style (its `newline_style` decides), else with `[defaults]`. */
function finish(output: string, input: string, settings: EngineSettings): string {
  return ownStyle(settings) ? output : finishText(output, input, settings.defaults);
}

/**
 * Runs `fn` with the `--config-path` for these settings and the folder rustfmt runs in: the repository's file, else an
 * empty `rustfmt.toml` in a private temporary directory (so rustfmt reads no configuration of poly's cwd or home); the
 * toolchain file's folder, else that private directory. The directory is removed afterwards.
 */
async function withPlaces<R>(settings: EngineSettings, fn: (place: Place) => Promise<R>): Promise<R> {
  const own = rustfmtFile(settings);
  const toolchain = toolchainDir(settings);
  if (own && toolchain) return await fn({ config: own, cwd: toolchain, env: RUSTFMT_RUN_ENV });
  const dir = await makeTempDir("poly-rustfmt-");
  try {
    const config = own ?? join(dir, "rustfmt.toml");
    if (!own) await Deno.writeTextFile(config, "");
    const cwd = toolchain ?? dir;
    return await fn({ config, cwd, env: await runEnv(settings, config, cwd) });
  } finally {
    await removeTemp(dir);
  }
}

/** Where and how rustfmt runs for one file's settings: its `--config-path`, the folder it runs in, its environment. */
interface Place {
  config: string;
  cwd: string;
  env: Record<string, string>;
}

/** stable rustfmt's word on an option only nightly takes (it then formats as if the option were not set). */
const NIGHTLY_ONLY =
  /^Warning: can't set `([^`=]+?) = [^`]*`, unstable features are only available in nightly channel/gm;

/** The options stable rustfmt takes (`rustfmt --help=config`, 1.9.0), `edition` among them. */
const STABLE_OPTIONS = new Set([
  "max_width",
  "hard_tabs",
  "tab_spaces",
  "newline_style",
  "use_small_heuristics",
  "fn_call_width",
  "attr_fn_like_width",
  "struct_lit_width",
  "struct_variant_width",
  "array_width",
  "chain_width",
  "single_line_if_else_max_width",
  "single_line_let_else_max_width",
  "reorder_imports",
  "reorder_modules",
  "remove_nested_parens",
  "match_arm_leading_pipes",
  "fn_params_layout",
  "match_block_trailing_comma",
  "edition",
  "style_edition",
  "merge_derives",
  "use_try_shorthand",
  "use_field_init_shorthand",
  "force_explicit_abi",
  "disable_all_formatting",
  "print_misformatted_file_names",
]);

/** The environment each style runs in, by its file, its bytes and rustfmt's arguments (a failure is not kept). */
const runEnvs = new Map<string, Promise<Record<string, string>>>();

/**
 * The environment rustfmt runs in under these settings. Where their style sets options only nightly rustfmt takes and
 * nothing picks the toolchain (no toolchain file: `withPlaces` runs rustfmt in a private folder; no
 * `RUSTUP_TOOLCHAIN`), stable rustfmt warns that it cannot set them and formats as if they were not set, where the
 * project formats with `cargo +nightly fmt` (quickwit-oss/tantivy): rustfmt then runs nightly's, as rustup has it, and
 * without one the files are errors saying how to get it.
 */
function runEnv(settings: EngineSettings, config: string, cwd: string): Promise<Record<string, string>> {
  const own = rustfmtFile(settings);
  const keys = [...Object.keys(settings.tool), ...(own ? Object.keys(settings.native!.options) : [])];
  // Only a style setting an option stable rustfmt does not list can need nightly: no process is started to ask.
  const stable = keys.every((k) => UNIFORM_KEYS.has(k) || STABLE_OPTIONS.has(k));
  if (Deno.env.get("RUSTUP_TOOLCHAIN") !== undefined || stable) return Promise.resolve(RUSTFMT_RUN_ENV);
  const args = rustfmtArgs(settings);
  const key = JSON.stringify([own ?? "", settings.native?.files.map((f) => f.hash), args]);
  let found = runEnvs.get(key);
  if (!found) {
    found = probeToolchain(args, config, cwd, own);
    runEnvs.set(key, found);
    found.catch(() => runEnvs.delete(key));
  }
  return found;
}

async function probeToolchain(
  args: string[],
  config: string,
  cwd: string,
  own: string | undefined,
): Promise<Record<string, string>> {
  const probe = await runHost("rustfmt", [...args, "--config-path", config], { stdin: "", cwd, env: RUSTFMT_RUN_ENV });
  const options = [...probe.stderr.matchAll(NIGHTLY_ONLY)].map((m) => m[1]);
  if (options.length === 0) return RUSTFMT_RUN_ENV;
  const nightly = { ...RUSTFMT_RUN_ENV, RUSTUP_TOOLCHAIN: "nightly" };
  const version = await runHost("rustfmt", ["--version"], { cwd, env: nightly }).catch(() => undefined);
  if (version?.code === 0) return nightly;
  throw new EngineError(
    `${own ? basename(own) : "[fmt.rust.rustfmt]"} sets options only nightly rustfmt takes (${
      options.join(", ")
    }), and rustup has no nightly toolchain: install it (rustup toolchain install nightly --component rustfmt) or ` +
      "name the toolchain in rust-toolchain.toml",
  );
}

async function formatOne(file: SourceFile, settings: EngineSettings, place: Place): Promise<string> {
  const args = [...rustfmtArgs(settings), "--config-path", place.config];
  const run = await runHost("rustfmt", args, { stdin: file.text, cwd: place.cwd, env: place.env });
  if (run.code !== 0) {
    const first = run.stderr.split("\n").find((l) => l.startsWith("error")) ?? run.stderr.trim().split("\n")[0];
    const pos = /--> <stdin>:(\d+):(\d+)/.exec(run.stderr);
    const title = first?.replace(/^error(\[\w+\])?: /, "") ?? `exit ${run.code}`;
    // rustup's own errors (a toolchain not installed) say what to do on a `help:` line.
    const help = run.stderr.split("\n").find((l) => l.startsWith("help: "));
    if (pos) {
      const line = Number(pos[1]);
      const column = Number(pos[2]);
      throw new SourceSyntaxError([syntaxDiagnostic("rustfmt", "syntax", title, { line, column })]);
    }
    throw new EngineError(help ? `${title} (${help})` : title);
  }
  return finish(run.stdout, file.text, settings);
}

/**
 * Where a file's copy goes in the batch's private directory: at its path relative to the run, so that `mod name;`
 * finds the copy of the module it names where the repository has it (rustfmt reads a declared module's file when given
 * a path, and formats it too); a path that leaves the run, in a numbered folder of its own.
 */
function placeOf(file: SourceFile, i: number): string {
  const parts = file.relPath.split("/");
  const plain = !file.relPath.startsWith("/") && parts.every((p) => p !== "" && p !== "." && p !== "..");
  return plain ? `tree/${file.relPath}` : `${i}/${basename(file.relPath)}`;
}

/**
 * A `mod name;` declaration, after the attributes on its line and the lines before it (group 1): rustfmt reads and
 * formats that module's file too, unless an attribute skips it.
 */
const MOD_DECLARATION =
  /^[ \t]*((?:#\[[^\]\n]*\]\s*)*)(?:pub(?:\([^)\n]*\))?[ \t]+)?mod[ \t]+(?:r#)?([A-Za-z_]\w*)[ \t]*;/gm;

/**
 * rustfmt's skip attribute (`#[rustfmt::skip]`, and the legacy `#[rustfmt_skip]` / `#[cfg_attr(rustfmt, rustfmt_skip)]`);
 * not `#[rustfmt::skip::macros(...)]`, which skips macro calls.
 */
const SKIP_ATTRIBUTE = /#\[[^\]\n]*(?:rustfmt::skip(?!::)|\brustfmt_skip)\b[^\]\n]*\]/;

/**
 * The file that declares the module at `path` (absolute) with rustfmt's skip attribute, if any: `cargo fmt` formats a
 * module only through the declaration, and never one declared `#[rustfmt::skip] mod name;` (a generated table, a
 * binding). The declaring file is looked for where Rust looks for it: `lib.rs`, `main.rs` or `mod.rs` in the module's
 * folder, else the file named after the folder (`src/a.rs` for `src/a/b.rs`). A `#[path]` declaration elsewhere is not
 * seen. `read` gives a file's text, or undefined where there is none.
 */
export function skippedBy(path: string, read: (path: string) => string | undefined): string | undefined {
  const file = basename(path);
  if (!file.endsWith(".rs")) return undefined;
  const own = file === "mod.rs" ? dirname(path) : path.slice(0, -3);
  const name = basename(own);
  const folder = dirname(own);
  const parents = ["lib.rs", "main.rs", "mod.rs"].map((p) => join(folder, p));
  if (dirname(folder) !== folder) parents.push(`${folder}.rs`);
  for (const parent of parents) {
    if (parent === path) continue;
    const text = read(parent);
    if (text === undefined || !text.includes(name)) continue;
    for (const m of text.matchAll(MOD_DECLARATION)) {
      if (m[2] === name && SKIP_ATTRIBUTE.test(m[1])) return parent;
    }
  }
  return undefined;
}

/**
 * A file's text, or undefined where it cannot be read (there is none). A plain read, not lib/fs/read_log.ts's
 * `ownFileText`: the declaring file's text decides another file's result, which the read log must see.
 */
function readOrNone(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

/** A reader of files' texts that reads each file once. */
function readOnce(): (path: string) => string | undefined {
  const texts = new Map<string, string | undefined>();
  return (path) => {
    if (!texts.has(path)) texts.set(path, readOrNone(path));
    return texts.get(path);
  };
}

/** The reader {@link skippedBy} is given for the cache's keys, one for the length of a run (`run`: its id). */
let runReader = { run: "", read: readOnce() };

function readForRun(run: string): (path: string) => string | undefined {
  if (runReader.run !== run) runReader = { run, read: readOnce() };
  return runReader.read;
}

/** The refusal of a module its declaration skips: reported as skipped, saying where, as `cargo fmt` leaves it. */
function skipRefusal(file: SourceFile, parent: string): EngineRefusal {
  const declared = join(dirname(file.relPath), relative(dirname(file.path), parent));
  return new EngineRefusal(
    `not formatted: ${declared} declares its module with #[rustfmt::skip], so cargo fmt leaves it as it is`,
  );
}

/**
 * The places (among `places`, `/`-separated) of the modules the file at `place` declares, where Rust looks for them:
 * beside it for `lib.rs`, `main.rs` and `mod.rs`, else in the folder named after it; `name.rs`, else `name/mod.rs`.
 * rustfmt formats those through the file, so they are not given to it again. A declaration this misses (one inside
 * an inline module, one with a `#[path]`) leaves its module given as well: formatted twice, the same text each time.
 */
export function declaredModules(place: string, text: string, places: ReadonlySet<string>): string[] {
  const slash = place.lastIndexOf("/");
  const dir = place.slice(0, slash + 1);
  const name = place.slice(slash + 1);
  const base = /^(lib|main|mod)\.rs$/.test(name) ? dir : `${dir}${name.replace(/\.rs$/, "")}/`;
  const out: string[] = [];
  for (const m of text.matchAll(MOD_DECLARATION)) {
    const found = [`${base}${m[2]}.rs`, `${base}${m[2]}/mod.rs`].find((p) => places.has(p));
    if (found !== undefined && found !== place) out.push(found);
  }
  return out;
}

/**
 * Each of `paths`' formatted text in rustfmt's `--emit stdout` output, which gives every file it formats as
 * `<path>:\n\n<text>`, each path below `dir` (the batch's folder): a module's file once for each file that declares it
 * and once for itself (the same text each time), and a module a `#[path]` places as the declaring file's folder joined
 * with the attribute (`<dir>/src/../shared/y.rs`, not normalised). Every header ends the text before it; a header of no
 * path among `paths` (a module outside the batch) gives no file its text.
 */
export function emitted(stdout: string, paths: readonly string[], dir: string): (string | undefined)[] {
  const index = new Map(paths.map((p, j) => [p, j]));
  const header = new RegExp(`^${dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/[^\n]*:\n\n`, "gm");
  const headers = [...stdout.matchAll(header)];
  const out: (string | undefined)[] = paths.map(() => undefined);
  headers.forEach((h, k) => {
    const j = index.get(normalize(h[0].slice(0, -3)));
    const end = k + 1 < headers.length ? headers[k + 1].index : stdout.length;
    if (j !== undefined) out[j] ??= stdout.slice(h.index + h[0].length, end);
  });
  return out;
}

/**
 * Formats many files with one rustfmt process (`--emit stdout` over copies laid out as in the run, in a private
 * directory: given the files no other declares as a module, it formats the rest through them, as `cargo fmt` does a
 * crate); files the batch could not format (a syntax error: reported with its line and column; a declared module
 * that is not among the copies) go one by one through stdin.
 */
export async function formatMany(files: SourceFile[], settings: EngineSettings): Promise<Settled<string>[]> {
  const out: Settled<string>[] = new Array(files.length);
  const read = readOnce();
  const rest: number[] = [];
  files.forEach((file, i) => {
    const parent = skippedBy(file.path, read);
    if (parent === undefined) rest.push(i);
    else out[i] = skipRefusal(file, parent);
  });
  if (rest.length === 0) return out;
  let formatted: Settled<string>[];
  try {
    formatted = await withPlaces(settings, (place) => formatManyWith(rest.map((i) => files[i]), settings, place));
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    formatted = rest.map(() => e);
  }
  rest.forEach((i, k) => out[i] = formatted[k]);
  return out;
}

async function formatManyWith(files: SourceFile[], settings: EngineSettings, place: Place): Promise<Settled<string>[]> {
  const { config, cwd, env } = place;
  const out = new Array<Settled<string> | undefined>(files.length);
  if (files.length > 1) {
    await withTempFiles(files, async (dir, names) => {
      const real = await Deno.realPath(dir);
      // Two files at one place: the copy is the first's, and only the first is given the batch's text.
      const first = new Map<string, number>();
      names.forEach((n, i) => first.has(n) || first.set(n, i));
      const paths = [...first.keys()].map((n) => join(real, n));
      // The modules a copy declares are formatted through it: given too, each would be formatted once more.
      const places = new Set(first.keys());
      const declared = new Set([...first].flatMap(([n, i]) => declaredModules(n, files[i].text, places)));
      const roots = [...first.keys()].filter((n) => !declared.has(n)).map((n) => join(real, n));
      const args = [...rustfmtArgs(settings), "--config-path", config, ...roots];
      const run = await runHost("rustfmt", args, { cwd, env });
      const texts = emitted(run.stdout, paths, real);
      [...first.values()].forEach((i, k) => {
        if (texts[k] !== undefined) out[i] = finish(texts[k], files[i].text, settings);
      });
    }, placeOf);
  }
  for (let i = 0; i < files.length; i++) {
    if (out[i] !== undefined) continue;
    try {
      out[i] = await formatOne(files[i], settings, place);
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      out[i] = e;
    }
  }
  return out as Settled<string>[];
}

/** rustup's `rustfmt` runs the toolchain `RUSTUP_TOOLCHAIN` names (its version is asked of the same program). */
const RUSTFMT_ENV = ["RUSTUP_TOOLCHAIN"] as const;

/** The rustfmt engine. */
export const rustfmt: EngineSpec = {
  id: "rustfmt",
  tier: "host",
  lintLanguages: [],
  formatLanguages: ["rust"],
  capabilities: { lint: false, format: true, fix: false },
  upstream: "rustfmt (host)",
  defaultEnabled: true,
  hostProgram: "rustfmt",
  hostEnv: RUSTFMT_ENV,
  // A run hands it all its files per settings at once (`formatMany`: one process), rather than one per pool task.
  batch: { format: true },
  // rustup's rustfmt is the toolchain of the folder it runs in, which the engine's cache version (asked where poly
  // runs, and cut to `1.9.0-nightly`) need not name: each run asks rustfmt where it runs, and its whole version line
  // (a nightly's commit and date included) goes into the keys, so an updated toolchain never answers from the results
  // of the one before.
  cacheSalt: (settings) =>
    withPlaces(settings, async ({ cwd, env }) => {
      const run = await runHost("rustfmt", ["--version"], { cwd, env }).catch(() => undefined);
      return run?.stdout.trim().split("\n")[0] ?? "";
    }).catch((e) => {
      // The style wants nightly rustfmt and rustup has none: installing it must change the keys.
      if (e instanceof EngineError) return `without: ${e.message}`;
      throw e;
    }),
  // Whether a file is formatted at all depends on how its module is declared ({@link skippedBy}): a result is kept
  // under that, and a change to any Rust file may change it for another.
  cacheContext: (file, _settings, run) =>
    Promise.resolve(skippedBy(file.path, run === undefined ? readOnce() : readForRun(run)) ?? ""),
  contextFiles: (path) => path.endsWith(".rs"),
  moduleUrls: () => Promise.resolve([]),
  load(): Promise<EngineInstance> {
    const batcher = new Batcher<string>(formatMany);
    return Promise.resolve({
      /** Formats one file; calls made in the same tick share one rustfmt process. */
      format: (file: SourceFile, settings: EngineSettings) => batcher.call(file, settings),
      formatMany,
    } as EngineInstance);
  },
};
