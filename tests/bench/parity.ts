/**
 * Parity harness: runs poly and each engine's native command line of the same version on one directory and prints,
 * per engine, how many diagnostics agree (matched by path, line, column and code), the differences by rule (top N,
 * one example each), and the cold wall-clock time of both sides. Formatting parity for biome and ruff too (which files
 * each calls unformatted). Asserts nothing; it is a measuring tool for any repository.
 *
 *   deno run -P=test tests/bench/parity.ts DIR
 *   deno run -P=test tests/bench/parity.ts --engines ruff,biome --top 20 DIR
 *   deno run -P=test tests/bench/parity.ts --strip-configs DIR   # both sides on a copy without native config files
 *   deno run -P=test tests/bench/parity.ts --json DIR            # the whole comparison as one JSON document
 *   deno run -P=test tests/bench/parity.ts --ignore assist/source/organizeImports,MD013/line-length DIR
 *                                                                # leave known classes out on both sides
 *
 * Native command lines (installed on demand into `$POLY_PARITY_CACHE`, default `~/.cache/poly-parity`, and printed):
 * - biome: npm `@biomejs/biome` at the version of poly's `@biomejs/wasm-nodejs` pin (poly's own `node_modules` copy
 *   when it is that version): `biome lint --reporter=json` and `biome format --reporter=json` in DIR.
 * - ruff: the `ruff` wheel from the Python package index at the version of poly's `@astral-sh/ruff-wasm-nodejs` pin
 *   (`pip install --target`): `ruff check --output-format=json` and `ruff format --check` in DIR.
 * - shellcheck: the host's (poly uses the host's too): `shellcheck -f json1` on the shell files poly would see.
 * - markdownlint: npm `markdownlint-cli2`, the newest version whose `markdownlint` dependency is poly's pin, on the
 *   Markdown files poly would see.
 * - ast-grep: npm `@ast-grep/cli` at poly's pin with poly's built-in rule files (their `*-test.yml` left out) and the
 *   directory's `.poly/rules` when present: `ast-grep scan --json=stream` in DIR.
 * - eslint: the tree's own (`node_modules/eslint`, once its dependencies are installed), as poly runs it:
 *   `node node_modules/eslint/bin/eslint.js --format json .` in DIR. Where an ESLint configuration governs, poly lints
 *   JavaScript and TypeScript with it instead of biome, so biome's column there counts files poly gave ESLint.
 *
 * poly runs once for lint (`poly lint --format json --no-cache --no-workspace .` in DIR) and once for format
 * (`poly fmt --check ...`), so its time covers every engine of the run; the ratio printed is poly's run against the
 * sum of the native runs of the engines compared. Columns of native tools that count code points are converted to
 * UTF-16 (poly's unit) before matching. A file reached through symlinks is one file: each side's findings are counted
 * once per real path (`onceByRealPath`). A file poly reports as errored with "syntax error at L:C" is matched as that
 * engine's syntax diagnostic and also counted apart ("errored records"), since its outcome differs.
 *
 * @module
 */
import { basename, dirname, join, relative, resolve } from "node:path";
import { detectLanguage } from "../../lib/discover/language.ts";
import ignore from "ignore";
import { parse as parseToml } from "smol-toml";
import { parseJsonc } from "../../lib/config/native/_jsonc.ts";
import { OXFMT_ONLY as OXFMT_KEYS } from "../../lib/config/native/prettier.ts";
import { tempDir } from "../_helpers/temp.ts";
import { cliPlatform as biomePlatform } from "../../lib/engines/biome/_bin.ts";
import { binaryPackage as astGrepPackage } from "../../lib/engines/ast_grep/_cli_bin.ts";

const REPO = resolve(dirname(new URL(import.meta.url).pathname), "..", "..");
const ENGINES = ["biome", "ruff", "shellcheck", "markdownlint", "ast-grep", "eslint"] as const;
type EngineId = typeof ENGINES[number];

/** One diagnostic, normalized for matching. */
export interface Finding {
  path: string;
  line: number;
  col: number;
  code: string;
  message: string;
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

async function run(cmd: string, args: string[], cwd: string, env?: Record<string, string>): Promise<Run> {
  const t0 = performance.now();
  const out = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped", env }).output();
  const ms = performance.now() - t0;
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr), ms };
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- versions and installs

const imports = (JSON.parse(Deno.readTextFileSync(join(REPO, "deno.json"))) as { imports: Record<string, string> })
  .imports;
export function pin(name: string): string {
  const spec = imports[name];
  const m = spec && /@([^@/]+)$/.exec(spec);
  if (!m) throw new Error(`No version pin for "${name}" in deno.json`);
  return m[1];
}

const CACHE = Deno.env.get("POLY_PARITY_CACHE") ??
  join(Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/tmp", ".cache"), "poly-parity");

/** A binary of npm package `pkg@version`: poly's own node_modules copy when it is that version, else the cache's. */
export async function npmBin(pkg: string, version: string, bin: string): Promise<string> {
  const local = join(REPO, "node_modules", pkg, "package.json");
  if (exists(local) && JSON.parse(Deno.readTextFileSync(local)).version === version) {
    return join(REPO, "node_modules", ".bin", bin);
  }
  const dir = join(CACHE, "npm", `${pkg.replace("/", "+")}@${version}`);
  const path = join(dir, "node_modules", ".bin", bin);
  if (exists(path)) return path;
  const tmp = `${dir}.tmp-${Deno.pid}`;
  await Deno.mkdir(tmp, { recursive: true });
  Deno.writeTextFileSync(join(tmp, "package.json"), "{}\n");
  console.error(`parity: installing ${pkg}@${version} into ${dir}`);
  const r = await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", `${pkg}@${version}`], tmp);
  if (r.code !== 0) throw new Error(`npm install ${pkg}@${version} failed: ${r.stderr.trim().split("\n")[0]}`);
  await Deno.rename(tmp, dir);
  return path;
}

/**
 * The executable an npm package's command starts, for the packages whose command is a Node.js launcher of a platform
 * package's binary: `@biomejs/biome` (`bin/biome`, always) and `@ast-grep/cli` (a shim that npm's postinstall replaces
 * with the binary, which Deno's install never runs). Node's start costs ~130–150 ms per command here, which poly (it
 * starts the binaries, lib/engines/biome/_bin.ts, lib/engines/ast_grep/_cli_bin.ts) and a standalone install do not
 * pay: a figure against the native tool times the binary.
 */
export async function npmExecutable(pkg: "@biomejs/biome" | "@ast-grep/cli", version: string): Promise<string> {
  const [bin, platformPackage] = pkg === "@biomejs/biome"
    ? ["biome", `@biomejs/cli-${biomePlatform()}`]
    : ["ast-grep", astGrepPackage()];
  if (!platformPackage) throw new Error(`${pkg} publishes no binary for this platform`);
  // `<node_modules>/<pkg>/…/<launcher>` → `<node_modules>/<platform package>/<binary>`, beside it.
  const launcher = await Deno.realPath(await npmBin(pkg, version, bin));
  let dir = launcher;
  while (!dir.endsWith(`/${pkg}`)) {
    if (dir === dirname(dir)) throw new Error(`${launcher} is not inside a ${pkg} package`);
    dir = dirname(dir);
  }
  const path = join(dirname(dirname(dir)), platformPackage, Deno.build.os === "windows" ? `${bin}.exe` : bin);
  if (!exists(path)) throw new Error(`${pkg}@${version}: no binary at ${path}`);
  return path;
}

/** The ruff binary of the wheel `ruff==version` (pip install --target into the cache). */
export async function pipRuff(version: string): Promise<string> {
  const dir = join(CACHE, "pip", `ruff-${version}`);
  const path = join(dir, "bin", "ruff");
  if (exists(path)) return path;
  const tmp = `${dir}.tmp-${Deno.pid}`;
  console.error(`parity: installing ruff==${version} from the Python package index into ${dir}`);
  const r = await run(
    "python3",
    ["-m", "pip", "install", "--quiet", "--no-deps", "--target", tmp, `ruff==${version}`],
    "/",
  );
  if (r.code !== 0) {
    throw new Error(
      `pip install ruff==${version} failed (poly's ruff pin must be a version the index serves): ${
        r.stderr.trim().split("\n").at(-1)
      }`,
    );
  }
  await Deno.mkdir(dirname(dir), { recursive: true });
  await Deno.rename(tmp, dir);
  return path;
}

/** The newest markdownlint-cli2 whose markdownlint dependency is `version` (looked up once, then remembered). */
async function markdownlintCli2(version: string): Promise<string> {
  const memo = join(CACHE, `markdownlint-cli2-for-${version}`);
  let cli = exists(memo) ? Deno.readTextFileSync(memo).trim() : "";
  if (!cli) {
    const all = JSON.parse(
      (await run("npm", ["view", "markdownlint-cli2", "versions", "--json"], "/")).stdout,
    ) as string[];
    for (const v of all.filter((v) => /^\d+\.\d+\.\d+$/.test(v)).reverse().slice(0, 10)) {
      const dep = (await run("npm", ["view", `markdownlint-cli2@${v}`, "dependencies.markdownlint"], "/")).stdout
        .trim();
      if (dep === version) {
        cli = v;
        break;
      }
    }
    if (!cli) throw new Error(`No recent markdownlint-cli2 depends on markdownlint ${version}`);
    await Deno.mkdir(CACHE, { recursive: true });
    Deno.writeTextFileSync(memo, cli);
  }
  return await npmBin("markdownlint-cli2", cli, "markdownlint-cli2");
}

// ---------------------------------------------------------------- files poly would see

/**
 * Files under `dir` (git's list when it is a repository, else a walk honouring .gitignore files), relative. A file git
 * tracks that a `.gitignore` names is left out, as poly's discovery leaves it out (it reads the ignore files, as ruff
 * and prettier do, not git's index); the native tools that lint it anyway are compared on the others.
 */
async function listFiles(dir: string): Promise<string[]> {
  if (exists(join(dir, ".git"))) {
    const r = await run("git", ["ls-files", "-co", "--exclude-standard", "-z"], dir);
    const ignored = await run("git", ["ls-files", "-ci", "--exclude-standard", "-z"], dir);
    if (r.code === 0 && ignored.code === 0) {
      const skip = new Set(ignored.stdout.split("\0"));
      return r.stdout.split("\0").filter((p) => p && !skip.has(p) && exists(join(dir, p))).sort();
    }
  }
  const out: string[] = [];
  const walk = (rel: string, rules: { base: string; ig: ReturnType<typeof ignore> }[]) => {
    const abs = join(dir, rel);
    const gi = join(abs, ".gitignore");
    const layers = exists(gi) ? [...rules, { base: rel, ig: ignore().add(Deno.readTextFileSync(gi)) }] : rules;
    for (const e of Deno.readDirSync(abs)) {
      if (e.name === ".git" || e.name === "node_modules") continue;
      const r = rel ? `${rel}/${e.name}` : e.name;
      const ignored = layers.some((l) => {
        const sub = l.base ? r.slice(l.base.length + 1) : r;
        return l.ig.ignores(e.isDirectory ? `${sub}/` : sub);
      });
      if (ignored) continue;
      if (e.isDirectory) walk(r, layers);
      else if (e.isFile) out.push(r);
    }
  };
  walk("", []);
  return out.sort();
}

function firstLine(path: string): string {
  try {
    const f = Deno.openSync(path);
    const buf = new Uint8Array(256);
    const n = f.readSync(buf) ?? 0;
    f.close();
    return new TextDecoder().decode(buf.subarray(0, n)).split("\n")[0];
  } catch {
    return "";
  }
}

/**
 * poly's own `[discovery] exclude` of `DIR/poly.toml` (gitignore syntax, anchored at DIR), applied to both sides:
 * files a repository excludes from poly are no difference between the engines.
 */
function polyExcludes(dir: string): { globs: string[]; excluded: (path: string) => boolean } {
  const path = join(dir, "poly.toml");
  if (!exists(path)) return { globs: [], excluded: () => false };
  const doc = parseToml(Deno.readTextFileSync(path)) as { discovery?: { exclude?: string | string[] } };
  const raw = doc.discovery?.exclude ?? [];
  const globs = typeof raw === "string" ? [raw] : raw;
  const ig = ignore().add(globs);
  return { globs, excluded: (p: string) => ig.ignores(p) };
}

// ---------------------------------------------------------------- column units

const texts = new Map<string, string[]>();
/** UTF-16 column of a 1-based code-point column on a 1-based line of `dir/path`. */
function cpToUtf16(dir: string, path: string, line: number, col: number): number {
  let lines = texts.get(path);
  if (!lines) {
    try {
      lines = Deno.readTextFileSync(join(dir, path)).split("\n");
    } catch {
      lines = [];
    }
    texts.set(path, lines);
  }
  const text = lines[line - 1];
  if (!text) return col;
  let i = 0;
  for (let c = 1; c < col && i < text.length; c++) i += (text.codePointAt(i) ?? 0) > 0xffff ? 2 : 1;
  return i + 1;
}

// ---------------------------------------------------------------- native runs

interface Side {
  findings: Finding[];
  ms: number;
  command: string;
  note?: string;
}

/** oxfmt's options with no prettier counterpart (what biome's migration could not read). */
const OXFMT_ONLY = ["$schema", ...OXFMT_KEYS];

/**
 * The tree the native biome runs on. biome itself never reads prettier's or oxfmt's options; poly maps them onto
 * biome's formatter as `biome migrate prettier` does. So where those options govern and no biome file does, the native
 * side runs on a copy to which `biome migrate prettier --write` gave that biome.json, the configuration a team adopting
 * biome gets (the generated file itself is left out of the comparison), with what poly maps beyond the migration: CSS
 * strings quoted by `singleQuote`, as prettier quotes them; for oxfmt's file (given to the migration as a
 * `.prettierrc.json` of its prettier options, at oxfmt's width of 100 unless it sets one), its `insertFinalNewline` and
 * its `ignorePatterns` as negated `formatter.includes`.
 */
async function biomeTree(dir: string, bin: string, work: string): Promise<{ dir: string; note?: string }> {
  const root = (name: string) => exists(join(dir, name));
  if (root("biome.json") || root("biome.jsonc")) return { dir };
  const oxfmtFile = [".oxfmtrc.json", ".oxfmtrc.jsonc"].find(root);
  const prettier = oxfmtFile !== undefined ||
    [".prettierrc", ".prettierrc.json", ".prettierrc.yaml", ".prettierrc.yml", ".prettierrc.json5"].some(root) ||
    (root("package.json") && JSON.parse(Deno.readTextFileSync(join(dir, "package.json"))).prettier !== undefined);
  if (!prettier) return { dir };
  const copy = join(work, "biome-tree");
  const cp = await run("cp", ["-r", dir, copy], work);
  if (cp.code !== 0) return { dir, note: `could not copy the tree for biome migrate prettier: ${cp.stderr.trim()}` };
  let oxfmt: Record<string, unknown> | undefined;
  if (oxfmtFile) {
    oxfmt = parseJsonc(Deno.readTextFileSync(join(dir, oxfmtFile))) as Record<string, unknown>;
    const options = Object.fromEntries(Object.entries(oxfmt).filter(([k]) => !OXFMT_ONLY.includes(k)));
    for (
      const name of [".prettierrc", ".prettierrc.json", ".prettierrc.yaml", ".prettierrc.yml", ".prettierrc.json5"]
    ) {
      await Deno.remove(join(copy, name)).catch(() => {});
    }
    await Deno.writeTextFile(join(copy, ".prettierrc.json"), JSON.stringify({ printWidth: 100, ...options }));
  }
  await Deno.writeTextFile(join(copy, "biome.json"), "{}\n");
  const m = await run(bin, ["migrate", "prettier", "--write"], copy);
  if (m.code !== 0) {
    return { dir, note: `biome migrate prettier failed: ${(m.stdout + m.stderr).trim().split("\n")[0]}` };
  }
  if (oxfmt) await Deno.remove(join(copy, ".prettierrc.json")); // read by the migration only: not a file of the tree
  const config = parseJsonc(Deno.readTextFileSync(join(copy, "biome.json"))) as Record<string, Record<string, unknown>>;
  const quote = (config.javascript?.formatter as { quoteStyle?: string } | undefined)?.quoteStyle;
  if (quote) config.css = { ...config.css, formatter: { ...(config.css?.formatter as object), quoteStyle: quote } };
  if (oxfmt?.insertFinalNewline === false) config.formatter = { ...config.formatter, trailingNewline: false };
  const ignores = (oxfmt?.ignorePatterns ?? []) as string[];
  if (ignores.length > 0) {
    // gitignore patterns as biome globs: a pattern without an inner slash matches at any depth, a trailing slash or
    // `/**` is the folder and everything below it.
    const glob = (p: string) => {
      const body = p.replace(/\/$/, "").replace(/\/\*\*$/, "");
      const anchored = body.startsWith("/") || body.includes("/");
      return `!${anchored ? body.replace(/^\//, "") : `**/${body}`}`;
    };
    config.formatter = { ...config.formatter, includes: ["**", ...ignores.map(glob)] };
  }
  await Deno.writeTextFile(join(copy, "biome.json"), JSON.stringify(config, null, 2) + "\n");
  return {
    dir: copy,
    note: `native biome ran with the biome.json \`biome migrate prettier\` writes from the ${
      oxfmtFile ? "oxfmt" : "prettier"
    } options (and CSS quoted by singleQuote${ignores.length > 0 ? ", ignorePatterns as formatter.includes" : ""})`,
  };
}

/** The files prettier formats, by name; oxfmt also TOML. */
const STYLE_EXTS = /\.(jsx?|tsx?|[cm][jt]s|jsonc?|css|graphql|gql|md|markdown|html?|vue|ya?ml)$/;
const OXFMT_EXTS = /\.(jsx?|tsx?|[cm][jt]s|jsonc?|css|graphql|gql|md|markdown|html?|vue|ya?ml|toml)$/;
/** The files poly formats as `deno fmt` does under a `deno.json` (its CSS, HTML and YAML are other formatters'). */
const DENO_EXTS = /\.(jsx?|tsx?|[cm][jt]s|jsonc?|md|markdown)$/;
type StyleTool = "prettier" | "oxfmt" | "deno";
const extsOf = (tool: StyleTool) => tool === "oxfmt" ? OXFMT_EXTS : tool === "deno" ? DENO_EXTS : STYLE_EXTS;

/**
 * The formatter whose file governs the root: oxfmt's, prettier's, Deno's (a `deno.json`, where no other formatter's
 * file is at the root), or none (a biome file governs, or nothing does).
 */
function styleTool(dir: string): StyleTool | undefined {
  const root = (name: string) => exists(join(dir, name));
  if (root("biome.json") || root("biome.jsonc")) return undefined;
  if ([".oxfmtrc.json", ".oxfmtrc.jsonc", "oxfmt.config.ts"].some(root)) return "oxfmt";
  const names = [".prettierrc", ".prettierrc.json", ".prettierrc.yaml", ".prettierrc.yml", ".prettierrc.json5"];
  const js = ["js", "cjs", "mjs", "ts"].flatMap((e) => [`.prettierrc.${e}`, `prettier.config.${e}`]);
  if ([...names, ...js, ".prettierrc.toml"].some(root)) return "prettier";
  if (root("package.json") && JSON.parse(Deno.readTextFileSync(join(dir, "package.json"))).prettier !== undefined) {
    return "prettier";
  }
  if (root("deno.json") || root("deno.jsonc")) return "deno";
  return undefined;
}

/**
 * The files the repository's own formatter calls unformatted: `prettier --list-different .` (poly's pin) or
 * `oxfmt --list-different .` (poly's pin, installed on demand), in DIR, each with its own ignore files.
 */
async function nativeStyle(
  dir: string,
  tool: StyleTool,
): Promise<{ unformatted: Set<string>; ms: number; tool: string; note?: string }> {
  if (tool === "deno") {
    // The Deno that runs this harness: `deno fmt --check` names each file it would change ("from /abs/path:").
    const r = await run(Deno.execPath(), ["fmt", "--check"], dir, { NO_COLOR: "1" });
    const unformatted = new Set(
      [...(r.stdout + r.stderr).matchAll(/^from (.+):$/gm)].map((m) => relative(dir, m[1])).filter((l) =>
        DENO_EXTS.test(l)
      ),
    );
    return { unformatted, ms: r.ms, tool: `deno fmt ${Deno.version.deno} (${Deno.execPath()} fmt --check)` };
  }
  const version = pin(tool);
  const bin = await npmBin(tool, version, tool);
  const r = await run(bin, ["--list-different", "."], dir);
  const unformatted = new Set(r.stdout.split("\n").map((l) => l.trim()).filter((l) => l && extsOf(tool).test(l)));
  // A tool that could not run at all (prettier cannot load a plugin the repository names: `[error] Cannot find package
  // 'prettier-plugin-astro'`, exit 1) lists nothing, which is no verdict; one that could not read some files says so.
  const errors = r.stderr.split("\n").map((l) => l.trim()).filter((l) => /^\[?error\]?/i.test(l));
  const note = r.code === 0 || errors.length === 0
    ? undefined
    : unformatted.size === 0
    ? `native ${tool} did not run: ${errors[0]}`
    : `native ${tool} reported ${errors.length} errors, e.g. ${errors[0]}`;
  return { unformatted, ms: r.ms, tool: `${tool} ${version} (${bin} --list-different .)`, ...(note ? { note } : {}) };
}

async function nativeBiome(
  given: string,
  bin: string,
  work: string,
): Promise<Side & { unformatted: Set<string>; fmtMs: number }> {
  const tree = await biomeTree(given, bin, work);
  const dir = tree.dir;
  const args = ["lint", "--reporter=json", "--max-diagnostics=none", "."];
  const r = await run(bin, args, dir);
  const findings: Finding[] = [];
  const parse = (s: string) => {
    const i = s.indexOf("{");
    return i < 0 ? { diagnostics: [] } : JSON.parse(s.slice(i));
  };
  for (const d of parse(r.stdout).diagnostics ?? []) {
    const loc = d.location ?? {};
    if (!loc.path || !loc.start || (tree.dir !== given && loc.path === "biome.json")) continue;
    const code = String(d.category ?? "").replace(/^lint\//, "");
    findings.push({
      path: loc.path,
      line: loc.start.line,
      col: cpToUtf16(dir, loc.path, loc.start.line, loc.start.column),
      code,
      message: d.message,
    });
  }
  const f = await run(bin, ["format", "--reporter=json", "--max-diagnostics=none", "."], dir);
  const unformatted = new Set<string>();
  for (const d of parse(f.stdout).diagnostics ?? []) {
    if (d.category !== "format" || !d.location?.path) continue;
    // A file biome cannot format for its parse errors is a syntax verdict (poly reports the errors), not unformatted.
    if (String(d.message).startsWith("Code formatting aborted due to parsing errors")) continue;
    if (tree.dir !== given && d.location.path === "biome.json") continue;
    unformatted.add(d.location.path);
  }
  // biome refuses to run on some trees (a nested biome.json without `"root": false`, an invalid configuration).
  const failure = (x: Run) =>
    x.stdout.includes('"summary"')
      ? undefined
      : (x.stdout + x.stderr).split("\n").find((l) => l.includes("×"))?.trim() ??
        `exit ${x.code}`;
  const problems = [failure(r), failure(f)].filter(Boolean);
  const note = problems.length ? `native biome did not run: ${problems[0]}` : tree.note;
  return { findings, ms: r.ms, command: `${bin} ${args.join(" ")}`, unformatted, fmtMs: f.ms, note };
}

async function nativeRuff(dir: string, bin: string): Promise<Side & { unformatted: Set<string>; fmtMs: number }> {
  // `--no-fix`: a project's `fix = true` (flask's) would have `ruff check` rewrite the tree it is compared on.
  const args = ["check", "--output-format=json", "--no-cache", "--no-fix", "--exit-zero", "."];
  const r = await run(bin, args, dir);
  const findings: Finding[] = [];
  for (const d of JSON.parse(r.stdout || "[]")) {
    const path = relative(dir, d.filename);
    // A rule without a code (ruff 0.16's newer rules, `pytest-fixture-autouse`) is named, as poly names it.
    const code = d.code ?? (d.name && d.name !== "invalid-syntax" ? d.name : "syntax");
    findings.push({
      path,
      line: d.location.row,
      col: cpToUtf16(dir, path, d.location.row, d.location.column),
      code: code === "invalid-syntax" ? "syntax" : code,
      message: d.message,
    });
  }
  const f = await run(bin, ["format", "--check", "--no-cache", "."], dir);
  const unformatted = new Set<string>();
  // "Would reformat: PATH" (older releases) or "unformatted: File would be reformatted" then " --> PATH:1:1".
  let pending = false;
  for (const line of f.stdout.split("\n")) {
    const m = /^Would reformat: (.+)$/.exec(line);
    if (m) unformatted.add(m[1]);
    if (line.startsWith("unformatted:")) pending = true;
    const at = /^\s*--> (.+?):\d+:\d+\s*$/.exec(line);
    if (pending && at) {
      unformatted.add(at[1]);
      pending = false;
    }
  }
  return { findings, ms: r.ms, command: `${bin} ${args.join(" ")}`, unformatted, fmtMs: f.ms };
}

async function nativeEslint(dir: string): Promise<Side> {
  const bin = join("node_modules", "eslint", "bin", "eslint.js");
  const command = `node ${bin} --format json .`;
  try {
    Deno.statSync(join(dir, bin));
  } catch {
    return { findings: [], ms: 0, command, note: "ESLint is not installed in the tree (no node_modules/eslint)" };
  }
  const r = await run("node", [bin, "--format", "json", "."], dir);
  const findings: Finding[] = [];
  const doc = r.stdout.trim().startsWith("[")
    ? JSON.parse(r.stdout) as {
      filePath: string;
      messages: { ruleId: string | null; line: number; column: number; message: string }[];
    }[]
    : [];
  for (const file of doc) {
    for (const m of file.messages) {
      if (!m.ruleId) continue;
      findings.push({
        path: relative(dir, file.filePath),
        line: m.line,
        col: m.column,
        code: m.ruleId,
        message: m.message,
      });
    }
  }
  const note = r.code === 2
    ? `ESLint stopped: ${r.stderr.trim().split("\n").filter(Boolean).slice(-1)[0] ?? ""}`
    : undefined;
  return { findings, ms: r.ms, command, ...(note ? { note } : {}) };
}

async function nativeShellcheck(dir: string, files: string[]): Promise<Side> {
  if (files.length === 0) return { findings: [], ms: 0, command: "shellcheck (no shell files)" };
  const args = ["-f", "json1", ...files];
  const r = await run("shellcheck", args, dir);
  const findings: Finding[] = [];
  const comments = r.stdout.trim().startsWith("{") ? JSON.parse(r.stdout).comments : [];
  for (const c of comments) {
    findings.push({
      path: c.file,
      line: c.line,
      col: cpToUtf16(dir, c.file, c.line, c.column),
      code: `SC${c.code}`,
      message: c.message,
    });
  }
  return { findings, ms: r.ms, command: `shellcheck -f json1 <${files.length} files>` };
}

/** Whether markdownlint-cli2 would find a configuration of the repository's own for `files`. */
function markdownlintConfigured(dir: string, files: string[]): boolean {
  const names = /(^|\/)\.markdownlint(-cli2)?\.(jsonc?|ya?ml|[cm]?js)$/;
  if (files.some((f) => names.test(f))) return true;
  // At the root, where the Markdown files' list (their own paths) does not name it.
  return [...Deno.readDirSync(dir)].some((e) => e.isFile && names.test(e.name));
}

async function nativeMarkdownlint(dir: string, bin: string, files: string[]): Promise<Side> {
  if (files.length === 0) return { findings: [], ms: 0, command: `${bin} (no Markdown files)` };
  // Without a configuration of the repository's own, poly deliberately turns off the rules a formatter owns
  // (markdownlint's own style/prettier set, as trunk ships it: docs/engines.md). The native side gets the same
  // default, so agreement measures the engine, not that documented choice.
  const args: string[] = [];
  let note: string | undefined;
  if (!markdownlintConfigured(dir, files)) {
    const config = join(dirname(dirname(dirname(bin))), "poly-default", ".markdownlint.jsonc");
    await Deno.mkdir(dirname(config), { recursive: true });
    await Deno.writeTextFile(config, JSON.stringify({ extends: "markdownlint/style/prettier" }) + "\n");
    args.push("--config", config);
    note = "no markdownlint configuration in the tree: native ran with poly's default (markdownlint/style/prettier)";
  }
  // A leading ":" makes each argument a literal path, not a glob.
  const r = await run(bin, [...args, ...files.map((f) => `:${f}`)], dir);
  const findings: Finding[] = [];
  for (const line of (r.stderr + "\n" + r.stdout).split("\n")) {
    const m = /^(.+?):(\d+)(?::(\d+))? (?:(?:error|warning) )?(MD\d+\/[\w-]+)(?:\/[\w-]+)* (.*)$/.exec(line);
    if (m) findings.push({ path: m[1], line: Number(m[2]), col: Number(m[3] ?? 1), code: m[4], message: m[5] });
  }
  return { findings, ms: r.ms, command: `${bin} ${args.join(" ")} <${files.length} files>`, note };
}

/** Rule ids poly runs that the native command line cannot (poly's own Dockerfile language): not compared. */
const polyOnlyRules = new Set<string>();

/**
 * An sgconfig.yml in `work` naming poly's built-in rule files (their tests left out) and the tree's `.poly/rules`;
 * the Dockerfile rules, which ast-grep's command line cannot run (poly's own language), are left out and their ids
 * added to {@link polyOnlyRules}.
 */
export async function astGrepConfig(work: string, tree: string): Promise<string> {
  const rules = join(work, "ast-grep-rules");
  await Deno.mkdir(rules, { recursive: true });
  const builtin = join(REPO, "lib", "rules", "builtin");
  for (const lang of Deno.readDirSync(builtin)) {
    for (const f of Deno.readDirSync(join(builtin, lang.name))) {
      if (!f.name.endsWith(".yml") || f.name.endsWith("-test.yml")) continue;
      const text = await Deno.readTextFile(join(builtin, lang.name, f.name));
      if (/^language:\s*Dockerfile\s*$/m.test(text)) {
        polyOnlyRules.add(/^id:\s*(\S+)/m.exec(text)?.[1] ?? f.name);
        continue;
      }
      await Deno.copyFile(join(builtin, lang.name, f.name), join(rules, f.name));
    }
  }
  const dirs = [rules];
  if (exists(join(tree, ".poly", "rules"))) dirs.push(join(tree, ".poly", "rules"));
  const config = join(work, "sgconfig.yml");
  await Deno.writeTextFile(config, `ruleDirs:\n${dirs.map((d) => `  - ${JSON.stringify(d)}\n`).join("")}`);
  return config;
}

async function nativeAstGrep(dir: string, bin: string, work: string): Promise<Side> {
  const config = await astGrepConfig(work, dir);
  const args = ["scan", "--config", config, "--no-ignore", "hidden", "--json=stream", "."];
  const r = await run(bin, args, dir);
  const findings: Finding[] = [];
  for (const line of r.stdout.split("\n")) {
    if (!line.trim().startsWith("{")) continue;
    const m = JSON.parse(line);
    const path = m.file.replace(/^\.\//, "");
    const lineNo = m.range.start.line + 1;
    findings.push({
      path,
      line: lineNo,
      col: cpToUtf16(dir, path, lineNo, m.range.start.column + 1),
      code: m.ruleId,
      message: m.message,
    });
  }
  const error = r.stderr.split("\n").find((l) => l.startsWith("Error:"));
  const skipped = polyOnlyRules.size ? `poly-only Dockerfile rules not compared: ${[...polyOnlyRules].join(", ")}` : "";
  const note = [r.code > 1 ? `exit ${r.code}: ${error ?? r.stderr.trim().split("\n")[0]}` : "", skipped]
    .filter(Boolean).join("; ") || undefined;
  return { findings, ms: r.ms, command: `${bin} ${args.join(" ")}`, note };
}

// ---------------------------------------------------------------- poly

interface PolyResult {
  path: string;
  diagnostics?: { engine: string; code?: string; title: string; span?: { start_line: number; start_col: number } }[];
  changed?: boolean;
  error?: string;
  skipped?: string;
}

async function poly(dir: string, args: string[]): Promise<{ results: PolyResult[]; ms: number; code: number }> {
  const r = await run(Deno.execPath(), [
    "run",
    "-q",
    "-P",
    "--no-prompt",
    "--node-modules-dir=manual",
    "--config",
    join(REPO, "deno.json"),
    join(REPO, "main.ts"),
    ...args,
    "--format",
    "json",
    "--no-cache",
    ".",
  ], dir);
  const i = r.stdout.indexOf("{");
  if (i < 0) throw new Error(`poly ${args.join(" ")} printed no report (exit ${r.code}): ${r.stderr.trim()}`);
  const report = JSON.parse(r.stdout.slice(i)) as { results: PolyResult[] };
  return {
    results: report.results.map((x) => ({ ...x, path: relative(dir, resolve(dir, x.path)) })),
    ms: r.ms,
    code: r.code,
  };
}

/** The engine a poly errored record belongs to, from its message ("ruff: ...", "biome ..."). */
function erroredEngine(message: string): EngineId | undefined {
  return ENGINES.find((e) => message.toLowerCase().startsWith(e));
}

/** poly's findings of one engine; errored records with a position count as the engine's syntax finding. */
function polyFindings(results: PolyResult[], engine: EngineId): { findings: Finding[]; errored: number } {
  const findings: Finding[] = [];
  let errored = 0;
  const syntaxCode = engine === "biome" ? "parse" : "syntax";
  for (const r of results) {
    for (const d of r.diagnostics ?? []) {
      if (d.engine !== engine || (engine === "ast-grep" && polyOnlyRules.has(d.code ?? ""))) continue;
      const code = d.code === "invalid-syntax" ? "syntax" : d.code ?? "";
      findings.push({
        path: r.path,
        line: d.span?.start_line ?? 1,
        col: d.span?.start_col ?? 1,
        code,
        message: d.title,
      });
    }
    if (r.error && erroredEngine(r.error) === engine) {
      errored++;
      const m = /syntax error at (\d+):(\d+)/.exec(r.error);
      if (m) findings.push({ path: r.path, line: +m[1], col: +m[2], code: syntaxCode, message: r.error });
    }
  }
  return { findings, errored };
}

// ---------------------------------------------------------------- comparison

/** Agreement of two finding lists, matched as multisets of path:line:col:code. */
export function compare(native: Finding[], mine: Finding[]): {
  matched: number;
  onlyNative: Finding[];
  onlyPoly: Finding[];
  agreement: number;
} {
  const key = (f: Finding) => `${f.path}\0${f.line}\0${f.col}\0${f.code}`;
  const pool = new Map<string, Finding[]>();
  for (const f of mine) pool.set(key(f), [...(pool.get(key(f)) ?? []), f]);
  const onlyNative: Finding[] = [];
  let matched = 0;
  for (const f of native) {
    const list = pool.get(key(f));
    if (list?.length) {
      list.pop();
      matched++;
    } else onlyNative.push(f);
  }
  const onlyPoly = [...pool.values()].flat();
  const total = matched + onlyNative.length + onlyPoly.length;
  return { matched, onlyNative, onlyPoly, agreement: total === 0 ? 1 : matched / total };
}

/**
 * `findings` with each file counted once by its real path: a file reached through symlinks (a `README.md` linking to
 * `packages/x/README.md`) is one file, linted once by poly but by some native tools under every name given. Each path
 * becomes its real path relative to `dir`; where several names lead to one file, only the findings of one name are
 * kept (the real path's own when it was linted, else the first name's).
 */
export function onceByRealPath(dir: string, findings: Finding[]): Finding[] {
  const real = new Map<string, string>();
  const realOf = (path: string) => {
    let r = real.get(path);
    if (r === undefined) {
      try {
        r = relative(Deno.realPathSync(dir), Deno.realPathSync(join(dir, path)));
      } catch {
        r = path;
      }
      real.set(path, r);
    }
    return r;
  };
  const chosen = new Map<string, string>();
  for (const f of findings) {
    const r = realOf(f.path);
    if (!chosen.has(r) || f.path === r) chosen.set(r, f.path);
  }
  return findings.filter((f) => chosen.get(realOf(f.path)) === f.path).map((f) => ({ ...f, path: realOf(f.path) }));
}

function byRule(list: Finding[]): { code: string; count: number; example: Finding }[] {
  const m = new Map<string, { code: string; count: number; example: Finding }>();
  for (const f of list) {
    const e = m.get(f.code) ?? { code: f.code, count: 0, example: f };
    e.count++;
    m.set(f.code, e);
  }
  return [...m.values()].sort((a, b) => b.count - a.count || (a.code < b.code ? -1 : 1));
}

const NATIVE_CONFIGS = [
  /(^|\/)biome\.jsonc?$/,
  /(^|\/)\.prettierrc(\.[a-z]+)?$/,
  /(^|\/)\.oxfmtrc\.jsonc?$/,
  /(^|\/)prettier\.config\.[cm]?js$/,
  /(^|\/)\.editorconfig$/,
  /(^|\/)\.?ruff\.toml$/,
  /(^|\/)\.markdownlint(-cli2)?\.(jsonc?|ya?ml|c?js|mjs)$/,
  /(^|\/)\.markdownlint(-cli2)?$/,
  /(^|\/)\.shellcheckrc$/,
  /(^|\/)deno\.jsonc?$/,
  // flake8's own file: where flake8 is configured, poly lints Python with flake8 rather than ruff.
  /(^|\/)\.flake8$/,
];

/** The tables a stripped copy cuts out of these files: ruff's from pyproject.toml, flake8's from every file it reads. */
const NATIVE_SECTIONS: Record<string, RegExp> = {
  "pyproject.toml": /^tool\.(ruff|flake8)(\.|$)/,
  "setup.cfg": /^flake8(:|$)/,
  "tox.ini": /^flake8(:|$)/,
};

/** `text` without the sections `header` names (TOML tables and INI sections alike start at a `[...]` line). */
function withoutSections(text: string, header: RegExp): string {
  const kept: string[] = [];
  let inside = false;
  for (const line of text.split("\n")) {
    const m = /^\s*\[\[?([^\]]+)\]/.exec(line);
    if (m) inside = header.test(m[1].trim());
    if (!inside) kept.push(line);
  }
  return kept.join("\n");
}

/** The native configuration files in the list (pyproject.toml, setup.cfg and tox.ini only with a section of theirs). */
function nativeConfigs(dir: string, files: string[]): string[] {
  return files.filter((f) => {
    if (NATIVE_CONFIGS.some((re) => re.test(f))) return true;
    const header = NATIVE_SECTIONS[basename(f)];
    if (!header) return false;
    const text = Deno.readTextFileSync(join(dir, f));
    return withoutSections(text, header) !== text;
  });
}

/**
 * A copy of `dir`'s listed files without native config files: ruff's and flake8's tables cut out of pyproject.toml,
 * flake8's sections out of setup.cfg and tox.ini ({@link NATIVE_SECTIONS}).
 */
async function strippedCopy(dir: string, files: string[], to: string): Promise<void> {
  for (const f of files) {
    if (NATIVE_CONFIGS.some((re) => re.test(f))) continue;
    await Deno.mkdir(join(to, dirname(f)), { recursive: true });
    const header = NATIVE_SECTIONS[basename(f)];
    if (header) {
      Deno.writeTextFileSync(join(to, f), withoutSections(Deno.readTextFileSync(join(dir, f)), header));
    } else {
      const info = Deno.lstatSync(join(dir, f));
      if (info.isSymlink) continue;
      Deno.copyFileSync(join(dir, f), join(to, f));
      if (info.mode) Deno.chmodSync(join(to, f), info.mode & 0o777);
    }
  }
}

// ---------------------------------------------------------------- main

function pct(x: number): string {
  return `${(100 * x).toFixed(1)}%`;
}
function secs(ms: number): string {
  return `${(ms / 1000).toFixed(2)}s`;
}

async function main() {
  const args = [...Deno.args];
  let top = 10;
  let only: EngineId[] = [...ENGINES];
  let strip = false;
  let json = false;
  let withFormat = true;
  let ignored = new Set<string>();
  const rest: string[] = [];
  while (args.length) {
    const a = args.shift()!;
    if (a === "--top") top = Number(args.shift());
    else if (a === "--engines") only = args.shift()!.split(",") as EngineId[];
    else if (a === "--strip-configs") strip = true;
    else if (a === "--json") json = true;
    else if (a === "--no-format") withFormat = false;
    else if (a === "--ignore") ignored = new Set(args.shift()!.split(","));
    else if (a === "-h" || a === "--help") {
      console.log(
        "Usage: deno run -P=test tests/bench/parity.ts [--engines biome,ruff,shellcheck,markdownlint,ast-grep,eslint] " +
          "[--top N] [--strip-configs] [--ignore CODE,...] [--no-format] [--json] DIR",
      );
      return;
    } else rest.push(a);
  }
  for (const e of only) if (!ENGINES.includes(e)) throw new Error(`Unknown engine "${e}"; use one of ${ENGINES}`);
  if (rest.length !== 1) throw new Error("Give exactly one directory: parity.ts [options] DIR");
  let dir = resolve(rest[0]);
  const work = await tempDir({ prefix: "poly-parity-" });
  try {
    const excludes = polyExcludes(dir);
    let files = (await listFiles(dir)).filter((f) => !excludes.excluded(f));
    const configs = nativeConfigs(dir, files);
    if (strip) {
      const copy = join(work, "tree");
      await strippedCopy(dir, files, copy);
      dir = copy;
      files = (await listFiles(dir)).filter((f) => !excludes.excluded(f));
    }
    const shellFiles = files.filter((f) => detectLanguage(f, firstLine(join(dir, f))) === "shell");
    const mdFiles = files.filter((f) => detectLanguage(f) === "markdown");

    const tools: Record<string, string> = {};
    const natives: Partial<Record<EngineId, Side>> = {};
    const formats: { engine: string; native: Set<string>; ms: number; exts: RegExp; note?: string }[] = [];
    if (only.includes("biome")) {
      const v = pin("@biomejs/wasm-nodejs");
      const bin = await npmExecutable("@biomejs/biome", v);
      tools.biome = `@biomejs/biome ${v} (${bin})`;
      const r = await nativeBiome(dir, bin, work);
      natives.biome = r;
      // Where prettier's or oxfmt's file governs (and no biome file), that tool formats in poly: the verdict to compare
      // is that tool's own, on every language it formats.
      const style = styleTool(dir);
      if (style) {
        const s = await nativeStyle(dir, style);
        tools[style] = s.tool;
        formats.push({ engine: style, native: s.unformatted, ms: s.ms, exts: extsOf(style), note: s.note });
      } else {
        formats.push({
          engine: "biome",
          native: r.unformatted,
          ms: r.fmtMs,
          exts: /\.(jsx?|tsx?|[cm][jt]s|jsonc?|css|graphql|gql)$/,
        });
      }
    }
    if (only.includes("ruff")) {
      const v = pin("@astral-sh/ruff-wasm-nodejs");
      const bin = await pipRuff(v);
      tools.ruff = `ruff ${v} from the Python package index (${bin})`;
      const r = await nativeRuff(dir, bin);
      natives.ruff = r;
      formats.push({ engine: "ruff", native: r.unformatted, ms: r.fmtMs, exts: /\.pyi?$/ });
    }
    if (only.includes("shellcheck")) {
      const v = (await run("shellcheck", ["--version"], "/")).stdout.match(/version: (\S+)/)?.[1];
      tools.shellcheck = `shellcheck ${v} (host, as poly uses)`;
      natives.shellcheck = await nativeShellcheck(dir, shellFiles);
    }
    if (only.includes("markdownlint")) {
      const v = pin("markdownlint");
      const bin = await markdownlintCli2(v);
      tools.markdownlint = `markdownlint-cli2 with markdownlint ${v} (${bin})`;
      natives.markdownlint = await nativeMarkdownlint(dir, bin, mdFiles);
    }
    if (only.includes("eslint")) {
      tools.eslint = "the tree's own ESLint (node_modules/eslint)";
      natives.eslint = await nativeEslint(dir);
    }
    if (only.includes("ast-grep")) {
      const v = pin("@ast-grep/cli");
      const bin = await npmExecutable("@ast-grep/cli", v);
      tools["ast-grep"] = `@ast-grep/cli ${v} with poly's built-in rules (${bin})`;
      natives["ast-grep"] = await nativeAstGrep(dir, bin, work);
    }

    let lint: Awaited<ReturnType<typeof poly>>;
    try {
      lint = await poly(dir, ["lint", "--no-workspace"]);
    } catch (error) {
      // A configuration poly refuses (a biome 1 file, a JavaScript config): say so beside what the natives did with it.
      console.log(`parity on ${rest[0]}: poly refused to run: ${error instanceof Error ? error.message : error}`);
      for (const [engine, side] of Object.entries(natives)) {
        if (side?.note) console.log(`  native ${engine}: ${side.note}`);
      }
      Deno.exitCode = 2;
      return;
    }
    const fmt = withFormat && formats.length ? await poly(dir, ["fmt", "--check"]) : undefined;

    const universe = new Set(files);
    const engines = only.map((engine) => {
      const native = natives[engine]!;
      native.findings = onceByRealPath(
        dir,
        native.findings.filter((f) => !excludes.excluded(f.path) && !ignored.has(f.code) && universe.has(f.path)),
      );
      const mine = polyFindings(lint.results, engine);
      mine.findings = onceByRealPath(dir, mine.findings.filter((f) => !ignored.has(f.code)));
      const c = compare(native.findings, mine.findings);
      return {
        engine,
        native: native.findings.length,
        poly: mine.findings.length,
        errored: mine.errored,
        matched: c.matched,
        agreement: c.agreement,
        nativeMs: native.ms,
        command: native.command,
        note: native.note,
        onlyNative: byRule(c.onlyNative).slice(0, top),
        onlyPoly: byRule(c.onlyPoly).slice(0, top),
      };
    });
    const formatting = formats.map(({ engine, native: all, ms, exts, note }) => {
      // Only the files of the compared kinds (ruff 0.16 also reformats the Python blocks of Markdown files).
      const native = new Set([...all].filter((f) => !excludes.excluded(f) && exts.test(f)));
      const universe = files.filter((f) => exts.test(f));
      const mine = new Set((fmt?.results ?? []).filter((r) => r.changed && exts.test(r.path)).map((r) => r.path));
      const both = universe.filter((f) => native.has(f) && mine.has(f)).length;
      const same = universe.filter((f) => native.has(f) === mine.has(f)).length;
      return {
        engine,
        files: universe.length,
        native: native.size,
        poly: mine.size,
        both,
        agreement: universe.length ? same / universe.length : 1,
        nativeMs: ms,
        onlyNative: [...native].filter((f) => !mine.has(f)).slice(0, top),
        onlyPoly: [...mine].filter((f) => !native.has(f)).slice(0, top),
        ...(note ? { note } : {}),
      };
    });
    const nativeLintMs = engines.reduce((s, e) => s + e.nativeMs, 0);
    const nativeFmtMs = formatting.reduce((s, e) => s + e.nativeMs, 0);
    const summary = {
      dir: rest[0],
      stripped_configs: strip,
      native_configs: configs,
      poly_excludes: excludes.globs,
      ignored_codes: [...ignored],
      files: files.length,
      tools,
      lint: { poly_ms: lint.ms, poly_exit: lint.code, native_ms: nativeLintMs, engines },
      format: fmt ? { poly_ms: fmt.ms, poly_exit: fmt.code, native_ms: nativeFmtMs, engines: formatting } : undefined,
    };
    if (json) {
      console.log(JSON.stringify(summary, null, 2));
      return;
    }
    console.log(`parity on ${rest[0]}: ${files.length} files${strip ? " (native configs stripped)" : ""}`);
    console.log(`native configs: ${configs.length ? configs.join(", ") : "none"}`);
    if (ignored.size) console.log(`codes left out on both sides: ${[...ignored].join(", ")}`);
    if (excludes.globs.length) {
      console.log(`poly.toml [discovery] exclude, applied to both sides: ${excludes.globs.join(", ")}`);
    }
    for (const [e, t] of Object.entries(tools)) console.log(`  ${e}: ${t}`);
    console.log(
      `\nlint: poly ${secs(lint.ms)} (exit ${lint.code}) vs native ${secs(nativeLintMs)} → ratio ${
        (lint.ms / Math.max(nativeLintMs, 1)).toFixed(2)
      } (cold, poly runs every engine in one process)`,
    );
    for (const e of engines) {
      console.log(
        `\n[${e.engine}] agreement ${pct(e.agreement)}: ${e.matched} matched, native ${e.native}, poly ${e.poly}` +
          `${e.errored ? `, poly errored records ${e.errored}` : ""}; native ${secs(e.nativeMs)}` +
          `${e.note ? ` (${e.note})` : ""}`,
      );
      for (const [side, list] of [["only native", e.onlyNative], ["only poly", e.onlyPoly]] as const) {
        for (const r of list) {
          const x = r.example;
          console.log(
            `  ${side.padEnd(11)} ${String(r.count).padStart(5)}  ${r.code}  e.g. ${x.path}:${x.line}:${x.col} ${
              x.message.slice(0, 90)
            }`,
          );
        }
      }
    }
    if (summary.format) {
      console.log(
        `\nformat: poly ${secs(summary.format.poly_ms)} vs native ${secs(nativeFmtMs)} → ratio ${
          (summary.format.poly_ms / Math.max(nativeFmtMs, 1)).toFixed(2)
        }`,
      );
      for (const f of formatting) {
        console.log(
          `[${f.engine} format] verdicts agree on ${
            pct(f.agreement)
          } of ${f.files} files: unformatted native ${f.native}, poly ${f.poly}, both ${f.both}${
            f.note ? ` (${f.note})` : ""
          }`,
        );
        for (const p of f.onlyNative) console.log(`  only native  ${p}`);
        for (const p of f.onlyPoly) console.log(`  only poly    ${p}`);
      }
    }
  } finally {
    await Deno.remove(work, { recursive: true });
  }
}

if (import.meta.main) await main();
