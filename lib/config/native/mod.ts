/**
 * The repository's own configuration governs: each engine's native config files
 * are found as its command line finds them (nearest ancestor of each directory up
 * to the repository root, `extend`/`extends`, nested configs), merged in the
 * upstream's own shape, and attached to the directory's {@link ResolvedConfig}
 * as `native` — so that every engine's settings (hence every cache key) carry the
 * governing files' hashes, and the report's `configs` list them in `sources`.
 *
 * - One place: {@link NativeConfigs} (per run; every directory listing and file
 *   read memoised, so a 40,000-file tree lists each directory at most once).
 * - Readers: `ruff.ts` (ruff), `biome.ts` (biome, with prettier options and
 *   `.editorconfig` mapped onto its formatter as `biome migrate prettier` does),
 *   `markdownlint.ts` (`.markdownlint*`), `host.ts` (`.shellcheckrc`,
 *   `.clang-format`, `rustfmt.toml` with `Cargo.toml`'s edition), `oxlint.ts`
 *   (`.oxlintrc.json` and its kin), `black.ts` (`[tool.black]`), `dprint.ts` (`dprint.json`), `flake8.ts`
 *   (`[flake8]` in `setup.cfg`, `tox.ini`, `.flake8`; `[tool.flake8]`), `mago.ts` (`mago.toml` and its kin; the
 *   files of the PHP style tools poly does not run).
 * - `[tools.<engine>] native_config = false` in poly.toml turns an engine's
 *   native files off; poly.toml's keys for the engine apply on top of the native ones.
 * - A native file poly cannot honour (a key without a mapping, a plugin, a
 *   JavaScript config) is a {@link ConfigError} naming the file and key.
 *
 * @module
 */
import type { Listings } from "../../fs/listing.ts";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";
import { fingerprint } from "../fingerprint.ts";
import type { ResolvedConfig } from "../types.ts";
import { NativeFiles } from "./_files.ts";
import { unhonouredConfig } from "./_reading.ts";
import { ruffMatches } from "./_glob.ts";
import {
  foldOnto,
  RUFF_DEFAULT_EXCLUDE,
  RUFF_RELEASE,
  RUFF_SETTINGS_FILES,
  RuffReader,
  ruffStyleGuide,
  withFirstParty,
} from "./ruff.ts";
import { biomeExcluded, BiomeReader } from "./biome.ts";
import { EditorconfigReader } from "./editorconfig.ts";
import { clangFormatExcluded } from "./clang_format_ignore.ts";
import { styleIgnored } from "./prettier.ts";
import { denoExcluded, DenoReader } from "./deno.ts";
import { CLANG_FORMAT_RELEASE, HostReader } from "./host.ts";
import { blackExcluded, BlackReader } from "./black.ts";
import { type Declared, PythonDepsReader } from "./python_deps.ts";
import { flake8Excluded, Flake8Reader } from "./flake8.ts";
import { EslintReader } from "./eslint.ts";
import { dprintExcluded, DprintReader } from "./dprint.ts";
import { markdownlintExcluded, MarkdownlintReader } from "./markdownlint.ts";
import { oxlintExcluded, OxlintReader } from "./oxlint.ts";
import { magoExcluded, MagoReader } from "./mago.ts";
import { KeptStyleReader } from "./kept_style.ts";
import { YamllintReader } from "./yamllint.ts";
import { engineHook, PRE_COMMIT_FILE, type PreCommitHook, PreCommitReader } from "./pre_commit.ts";
import {
  biomeHookOptions,
  blackFlags,
  clangFormatHookStyle,
  markdownlintHookRules,
  ruffCheckHookOptions,
  ruffHookOptions,
  shellcheckHookFlags,
  shfmtHookOptions,
  styluaHookOptions,
} from "./hook_args.ts";
import { isTable, mergeTables, tableOf } from "../table.ts";
import { ConfigError } from "../../errors/mod.ts";
import type { NativeEngineConfig, NativeLayer, NativePattern, NativeSource } from "./types.ts";

export type { NativeEngineConfig, NativeLayer, NativePattern, NativeSource } from "./types.ts";
export { RUFF_DEFAULT_EXCLUDE } from "./ruff.ts";
export { NATIVE_NAMES } from "./_files.ts";
export { blackExcluded } from "./black.ts";
export { configuresLint } from "./ruff.ts";
export { type DprintOptions, pluginName } from "./dprint.ts";
export {
  type EditorconfigDefaults,
  editorconfigDefaults,
  editorconfigProps,
  shfmtEditorconfig,
  shfmtIgnoredBy,
  styluaEditorconfig,
} from "./editorconfig.ts";

/**
 * The layer key of the nearest `package.json` biome reads (its domains, its `type`): not
 * biome's configuration, so poly's defaults still apply where no biome file governs.
 */
export const NODE_MANIFEST = "node-manifest";

/**
 * The layer key of the nearest prettier or oxfmt configuration (`BiomeReader.styleFor`): that tool formats the languages
 * it formats under it (biome keeps its own where a biome file governs biome; lib/run/plan.ts), and its ignores
 * keep files from every formatter of those languages.
 */
export const FORMAT_STYLE = "format-style";

/**
 * The layer key of the `deno.json` whose `fmt` governs (`DenoReader.forDir`): dprint formats JavaScript, TypeScript,
 * JSON and Markdown under it as `deno fmt` does (lib/run/plan.ts), and its `include`/`exclude` keep files from that.
 */
export const DENO_FMT = "deno-fmt";

/**
 * The layer key of the `deno.json` whose `lint` governs: `deno lint` lints JavaScript and TypeScript there in biome's
 * place (lib/run/plan.ts), under its rules, and its `include`/`exclude` keep files from it.
 */
export const DENO_LINT = "deno-lint";

/**
 * The layer key of the nearest ESLint configuration (lib/config/native/eslint.ts), where no biome file of biome's own,
 * oxlint file or `deno.json` lint governs: the repository's ESLint lints JavaScript and TypeScript there, in biome's
 * place (lib/run/plan.ts, lib/engines/eslint/). The engine's id.
 */
export const ESLINT = "eslint";

/**
 * The layer key of the formatters poly does not run that keep a folder's languages (yapf and pyink for Python,
 * SQLFluff for SQL, taplo for TOML, yamlfmt for YAML: lib/config/native/kept_style.ts): `options` maps each language to
 * the tool; poly's formatter of that language does not format it there unless poly.toml names it (lib/run/plan.ts).
 */
export const KEPT_STYLE = "kept-style";

/** The key of yamllint's configuration in a native layer (lib/config/native/yamllint.ts): the layout it checks. */
export const YAMLLINT = "yamllint";

/**
 * The layer key of the hooks of the repository's `.pre-commit-config.yaml` poly reads (lib/config/native/pre_commit.ts):
 * a hook of an engine poly runs makes it the formatter (or linter) of the files it takes, under the hook's arguments;
 * the hooks of formatters poly does not run keep the files they take from poly's formatter (lib/run/plan.ts).
 */
export const PRE_COMMIT = "pre-commit";

/**
 * StyLua as its hook runs it: the hook's flags over the `stylua.toml` governing the folder (`own`), or, where none
 * does, over StyLua's defaults (not poly's `[defaults]`), the `.editorconfig` then read over them as StyLua reads it
 * unless `--no-editorconfig` (StyLua applies it over its command line); a `.styluaignore`'s patterns kept. Throws a
 * ConfigError for a flag poly cannot apply.
 */
function styluaHooked(
  own: NativeEngineConfig | undefined,
  hook: PreCommitHook,
  top: string,
  shown: string,
): NativeEngineConfig {
  const { options, editorconfig } = styluaHookOptions(hook, shown);
  if (own && !own.ignoreOnly) return { ...own, options: { ...own.options, ...options }, hook: hook.id };
  return {
    ...beneathHook(own, top),
    options,
    hook: hook.id,
    ...(editorconfig ? { readsEditorconfig: true as const } : {}),
  };
}

/**
 * What a hook's settings go over: the engine's own configuration, where a file that only keeps files from the engine
 * (`ignoreOnly`: a `.styluaignore`, markdownlint-cli2's `ignores`) keeps them under the hook too and no longer leaves
 * poly's `[defaults]` in place; an empty one at `top` where there is none.
 */
function beneathHook(own: NativeEngineConfig | undefined, top: string): NativeEngineConfig {
  const { ignoreOnly: _ignoreOnly, ...base } = own ?? { files: [], options: {}, root: top };
  return base;
}

/**
 * shellcheck as its hook runs it: the hook's flags (lib/config/native/hook_args.ts) kept in `options.hook` for the
 * engine to pass before poly.toml's, over the `.shellcheckrc` governing the folder (`own`), or over none where the hook
 * says `--norc`; `-x` and `-P` as the rc file's `external-sources` and `source-path`. Throws a ConfigError for a flag
 * poly cannot apply.
 */
function shellcheckHooked(
  own: NativeEngineConfig | undefined,
  hook: PreCommitHook,
  top: string,
  shown: string,
): NativeEngineConfig {
  const { norc, ...flags } = shellcheckHookFlags(hook, shown);
  const base: NativeEngineConfig = own && !norc ? own : { files: [], options: {}, root: top };
  const paths = [...(base.options["source-path"] as string[] ?? []), ...flags.sourcePath];
  return {
    ...base,
    options: {
      ...base.options,
      ...(flags.externalSources ? { "external-sources": "true" } : {}),
      ...(paths.length > 0 ? { "source-path": paths } : {}),
      // The flags the engine passes, before poly.toml's (`-x` and `-P` among them: the rc file is shellcheck's).
      hook: flags,
    },
    hook: hook.id,
  };
}

/** clang-format's predefined styles (`--style=<name>`, `BasedOnStyle`), in lower case as it matches them. */
const CLANG_FORMAT_STYLES = new Set(["llvm", "google", "chromium", "mozilla", "webkit", "microsoft", "gnu"]);

/**
 * biome as its formatting hook runs it: the hook's settings over the biome file of biome's own governing the
 * directory (`own`), or over biome's defaults where none does; undefined where the hook turns biome's formatter off
 * (`--formatter-enabled=false`). Arguments poly cannot apply make the configuration `unmapped` (its formatting errors,
 * saying why; its linting goes on).
 */
function biomeHooked(
  own: NativeEngineConfig | undefined,
  hook: PreCommitHook,
  top: string,
  shown: string,
): NativeEngineConfig | undefined {
  const base: NativeEngineConfig = own ?? { files: [], options: {}, root: top };
  try {
    const options = biomeHookOptions(hook, shown);
    if (tableOf(options.formatter).enabled === false) return own;
    return { ...base, options: mergeTables(base.options, options), hook: hook.id };
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    return { ...base, hook: hook.id, unmapped: e.message };
  }
}

/**
 * `config` with the release of clang-format its hook pins (pre-commit/mirrors-clang-format's `rev`, cpp-linter-hooks'
 * `--version`), where that is another LLVM major than poly's: each major lays out some code otherwise (clang-format 23
 * derives `PointerAlignment` otherwise than 20: loco-3d/crocoddyl's hook pins 20.1.7, which passes all 325 of its C++
 * files, where 23 calls 17 unformatted), so poly's clang-format does not format for it (lib/run/plan.ts says so).
 */
function withClangFormatRelease(config: NativeEngineConfig, hook: PreCommitHook, shown: string): NativeEngineConfig {
  const major = hook.version?.split(".")[0];
  if (!major || major === CLANG_FORMAT_RELEASE.split(".")[0]) return config;
  const clause = `whose output poly's clang-format ${CLANG_FORMAT_RELEASE} does not reproduce`;
  const from = `its "${hook.id}" hook in ${shown}`;
  return { ...config, otherRelease: { tool: "clang-format", spec: hook.version!, from, clause } };
}

/**
 * clang-format as its hook runs it: with `--style=file` (the hook's default), the nearest `.clang-format` (`own`),
 * or where none governs the hook's `--fallback-style` (LLVM's by default) — not poly's `[defaults]`; with a style
 * named or written inline, that style in the file's place, as clang-format takes it. One poly cannot apply throws.
 */
async function clangFormatHooked(
  own: NativeEngineConfig | undefined,
  hook: PreCommitHook,
  top: string,
  shown: string,
): Promise<NativeEngineConfig> {
  const { style, fallback } = clangFormatHookStyle(hook, shown);
  const named = (name: string, flag: string): Record<string, unknown>[] => {
    if (/^none$/i.test(name)) return [{ DisableFormat: true }];
    if (CLANG_FORMAT_STYLES.has(name.toLowerCase())) return [{ BasedOnStyle: name }];
    throw new ConfigError(
      { file: shown },
      `the "${hook.id}" hook's args: ${flag}=${name} is not a style clang-format knows (${
        [...CLANG_FORMAT_STYLES].join(", ")
      }, none)`,
    );
  };
  // clang-format's command line reads the nearest `.clang-format-ignore` whatever the style.
  const ignoring = own?.clangFormatIgnore
    ? {
      files: own.files.filter((f) => f.path === own.clangFormatIgnore!.file),
      clangFormatIgnore: own.clangFormatIgnore,
    }
    : { files: [] };
  if (style === "file") {
    return own && !own.ignoreOnly ? { ...own, hook: hook.id } : {
      ...ignoring,
      options: { styles: named(fallback, "--fallback-style") },
      root: top,
      hook: hook.id,
    };
  }
  let styles: Record<string, unknown>[];
  if (style.startsWith("{")) {
    let doc: unknown;
    try {
      doc = (await import("js-yaml")).load(style, { json: true });
    } catch (e) {
      throw new ConfigError(
        { file: shown },
        `the "${hook.id}" hook's args: --style=${style} is not a style clang-format can read: ${
          (e as Error).message.split("\n")[0]
        }`,
      );
    }
    if (!isTable(doc)) {
      throw new ConfigError({ file: shown }, `the "${hook.id}" hook's args: --style=${style} must be a mapping`);
    }
    styles = [doc];
  } else if (style.startsWith("file:")) {
    throw new ConfigError(
      { file: shown },
      `the "${hook.id}" hook's args: poly cannot apply --style=${style} (a style file by its path); name the style in a .clang-format`,
    );
  } else styles = named(style, "--style");
  return { ...ignoring, options: { styles }, root: top, hook: hook.id };
}

/** Engines that read native config files. */
export const NATIVE_ENGINES = [
  "ruff",
  "biome",
  "shellcheck",
  "markdownlint",
  "clang-format",
  "rustfmt",
  "oxlint",
  "luafmt",
  "black",
  "dprint",
  "flake8",
  "mago",
] as const;

/** The native-configuration layer of one run. */
export class NativeConfigs {
  readonly #files: NativeFiles;
  readonly #ruff: RuffReader;
  readonly #biome: BiomeReader;
  readonly #editorconfig: EditorconfigReader;
  readonly #host: HostReader;
  readonly #markdownlint: MarkdownlintReader;
  readonly #deno: DenoReader;
  readonly #oxlint: OxlintReader;
  readonly #black: BlackReader;
  readonly #flake8: Flake8Reader;
  readonly #eslint: EslintReader;
  readonly #dprint: DprintReader;
  readonly #mago: MagoReader;
  readonly #keptStyle: KeptStyleReader;
  readonly #yamllint: YamllintReader;
  readonly #preCommit: PreCommitReader;
  readonly #pythonDeps: PythonDepsReader;
  readonly #derived = new Map<string, ResolvedConfig>();
  /** ruff without a file of its own, by the directory its defaults are relative to. */
  readonly #defaultRuff = new Map<string, Promise<NativeEngineConfig>>();

  /**
   * `top` bounds the upward search (the repository anchor); `display` shows paths in messages; `anchorOf` gives the
   * bound of a directory outside `top` (its own repository's anchor: a run started elsewhere, `poly lint ../other`).
   */
  constructor(
    private readonly top: string,
    display: (path: string) => string,
    listings?: Listings,
    private readonly anchorOf: (dir: string) => Promise<string> = (dir) => Promise.resolve(dir),
  ) {
    this.#files = new NativeFiles(listings);
    this.#ruff = new RuffReader(this.#files, display);
    this.#biome = new BiomeReader(this.#files, display, async (top) => {
      const hooks = await this.#preCommit.forRoot(top).catch(() => undefined);
      return engineHook(hooks, "prettier") ? join(top, PRE_COMMIT_FILE) : undefined;
    });
    this.#editorconfig = new EditorconfigReader(this.#files, display);
    this.#host = new HostReader(this.#files, display);
    this.#markdownlint = new MarkdownlintReader(this.#files, display);
    this.#deno = new DenoReader(this.#files, display);
    this.#oxlint = new OxlintReader(this.#files, display);
    this.#black = new BlackReader(this.#files, display);
    this.#flake8 = new Flake8Reader(this.#files, display);
    this.#eslint = new EslintReader(this.#files);
    this.#dprint = new DprintReader(this.#files, display);
    this.#mago = new MagoReader(this.#files, display);
    this.#keptStyle = new KeptStyleReader(this.#files);
    this.#yamllint = new YamllintReader(this.#files, display);
    this.#preCommit = new PreCommitReader(this.#files, display);
    this.#pythonDeps = new PythonDepsReader(this.#files);
    this.#display = display;
  }

  readonly #display: (path: string) => string;
  /**
   * The engines' configurations under the repository's pre-commit hooks, by the configuration each goes over (or the
   * pre-commit configuration, where the engine has none of its own) and engine: one object each, as the files' own
   * configurations are shared by the folders under them.
   */
  readonly #underHooks = new WeakMap<NativeEngineConfig, Map<string, Promise<NativeEngineConfig | undefined>>>();

  /** `make()`, once per configuration `over` and engine `id` ({@link #underHooks}). */
  #underHook<T extends NativeEngineConfig | undefined>(
    over: NativeEngineConfig,
    id: string,
    make: () => Promise<T>,
  ): Promise<T> {
    let byEngine = this.#underHooks.get(over);
    if (!byEngine) this.#underHooks.set(over, byEngine = new Map());
    let found = byEngine.get(id);
    if (!found) byEngine.set(id, found = make());
    return found as Promise<T>;
  }

  /**
   * `ruff` as its pre-commit hooks run it: the `ruff-check` hook's rule selection folded over the configuration's as
   * ruff folds its command line's, and its settings, then the `ruff-format` hook's settings, over the configuration's
   * options (or ruff's own defaults, where no file governs), the hook named. Arguments poly cannot apply make the
   * configuration `unmapped` for `ruff-format`'s (its formatting errors, saying why; its linting goes on), unhonoured
   * for `ruff-check`'s.
   */
  async #ruffHooked(
    ruff: NativeEngineConfig,
    format: PreCommitHook | undefined,
    check: PreCommitHook | undefined,
    shown: string,
  ): Promise<NativeEngineConfig> {
    const hook = (format ?? check)!.id;
    let options = ruff.options;
    if (check) {
      try {
        const { options: own, selection } = await ruffCheckHookOptions(check, shown);
        options = { ...options, ...own, lint: foldOnto({ ...tableOf(options.lint), ...tableOf(own.lint) }, selection) };
      } catch (e) {
        if (!(e instanceof ConfigError)) throw e;
        return { ...ruff, hook, unhonoured: e.message };
      }
    }
    if (format) {
      try {
        options = { ...options, ...await ruffHookOptions(format, shown) };
      } catch (e) {
        if (!(e instanceof ConfigError)) throw e;
        return { ...ruff, options, hook, unmapped: e.message };
      }
      // A `rev` of another year's style guide formats otherwise than poly's ruff (lib/run/plan.ts says so).
      const year = format.version ? ruffStyleGuide(format.version) : undefined;
      const ours = ruffStyleGuide(RUFF_RELEASE);
      if (year !== undefined && year !== ours) {
        const from = `its "${format.id}" hook in ${shown}`;
        const clause = `whose ${year} style guide poly's ruff ${RUFF_RELEASE} (the ${ours} one) does not keep`;
        return { ...ruff, options, hook, otherRelease: { tool: "ruff", spec: format.version!, from, clause } };
      }
    }
    return { ...ruff, options, hook };
  }

  /**
   * `out[id]` under the repository's pre-commit hook that runs engine `id` (`lints`: its linting hook), as `make` makes
   * it over the configuration found (`own`, if any), once per configuration; a flag poly cannot apply (a ConfigError)
   * makes it unhonoured, saying so. Left as it is where no such hook is read or the configuration found is unhonoured.
   */
  async #hookOver(
    out: NativeLayer,
    id: string,
    lints: boolean,
    preCommit: NativeEngineConfig | undefined,
    top: string,
    make: (
      own: NativeEngineConfig | undefined,
      hook: PreCommitHook,
    ) => NativeEngineConfig | Promise<NativeEngineConfig>,
  ): Promise<void> {
    const hook = engineHook(preCommit, id, lints);
    const own = out[id];
    if (!hook || own?.unhonoured) return;
    out[id] = await this.#underHook(
      own ?? preCommit!,
      id,
      () => this.#unhonouredAt(top, async () => await make(own, hook)),
    );
  }

  /** Whether `dir` has an entry whose name passes `test`, from the listing the native readers share (once per run). */
  holdsAny(dir: string, test: (name: string) => boolean): Promise<boolean> {
    return this.#files.hasAny(dir, test);
  }

  /** The names of every entry of `dir`, from that same listing; undefined when it cannot be listed. */
  entryNames(dir: string): Promise<ReadonlySet<string> | undefined> {
    return this.#files.entryNames(dir);
  }

  /** The engines' native configuration governing `dir` under `config` (engines opted out are absent). */
  async layer(dir: string, config: ResolvedConfig): Promise<NativeLayer> {
    const top = isInside(this.top, dir) ? this.top : await this.anchorOf(dir);
    const wanted = (id: string) => {
      const tool = config.data.tools[id] as { native_config?: boolean; enabled?: boolean } | undefined;
      return tool?.native_config !== false && tool?.enabled !== false;
    };
    const out: NativeLayer = {};
    // The repository's pre-commit hooks: one file at the root, read once.
    const preCommitPath = join(top, PRE_COMMIT_FILE);
    const preCommit = await this.#unhonouredAt(top, () => this.#preCommit.forRoot(top), preCommitPath);
    if (preCommit) out[PRE_COMMIT] = preCommit;
    const shown = this.#display(preCommitPath);
    if (wanted("ruff")) {
      const path = await this.#ruff.nearest(dir, top);
      if (path) {
        out.ruff = await this.#unhonouredAt(dir, () => this.#ruff.resolve(path), path);
        // Not honoured, its folders ruff never looks in (`.venv`, `build`, ...) still are not ruff's.
        if (out.ruff.unhonoured) out.ruff.exclude = defaultRuff(top).exclude;
      } else {
        // No ruff file: ruff's defaults, with the Python version of the nearest pyproject.toml's requires-python; the
        // repository's own where it declares ruff among its dependencies (poly's [defaults] then do not apply).
        const python = await this.#ruff.requiresPython(dir, top);
        const declared = (await this.#pythonDeps.forDir(dir, top))?.ruff;
        const key = `${python ? python.file.path : top}\0${declared?.file.path ?? ""}`;
        let fallback = this.#defaultRuff.get(key);
        if (!fallback) this.#defaultRuff.set(key, fallback = withFirstParty(defaultRuff(top, python, declared?.file)));
        out.ruff = await fallback;
      }
      // ruff's `ruff-format` and `ruff-check` hooks: ruff runs as they run it, their arguments over the configuration.
      const format = engineHook(preCommit, "ruff");
      const check = engineHook(preCommit, "ruff", true);
      const ruff = out.ruff;
      if ((format || check) && !ruff.unhonoured) {
        out.ruff = await this.#underHook(ruff, "ruff", () => this.#ruffHooked(ruff, format, check, shown));
      }
      // The ruff the repository installs (its lockfile's, or the release its requirements pin), where its formatting
      // hook pins none: another year's style guide than poly's ruff formats by is not poly's to reproduce.
      if (!format?.version && !out.ruff.unhonoured && !out.ruff.otherRelease) {
        const declared = (await this.#pythonDeps.forDir(dir, top))?.ruff;
        const release = declared && ruffRelease(declared, this.#display);
        if (release) out.ruff = { ...out.ruff, otherRelease: release };
      }
    }
    if (wanted("black")) {
      // A repository formatting its Python with black: black formats it (lib/run/plan.ts).
      let black = await this.#unhonouredAt(dir, () => this.#black.forDir(dir, top));
      // black's hook: black formats the files it takes, as the hook runs it (its `--config` file, its flags).
      const hook = engineHook(preCommit, "black");
      if (hook && !black?.unhonoured) {
        black = await this.#unhonouredAt(dir, () => this.#black.underHook(black, hook, top, shown));
      }
      // Without either, and without a ruff file or hook (a repository that moved to ruff may still list black), one
      // that declares black among its dependencies formats with black's defaults, held to the major release it pins
      // (its style guide's year), as a hook's `rev` holds it.
      if (!black && !engineHook(preCommit, "ruff") && !(await this.#ruff.nearest(dir, top))) {
        const declarations = await this.#pythonDeps.forDir(dir, top);
        const declared = declarations?.black;
        if (declared) {
          const major = declared.release?.split(".")[0];
          // The flags a Makefile or workflow there gives black (vetted: each one black's layout flags poly applies).
          const made = declarations.blackFlags;
          const flags = made ? blackFlags(made.args, made.by, this.#display(made.file.path)) : {};
          const args = { ...major ? { required_version: major } : {}, ...flags };
          black = {
            files: [declared.file, ...made && made.file !== declared.file ? [made.file] : []],
            options: Object.keys(args).length > 0 ? { args } : {},
            root: declarations.dir,
          };
        }
      }
      if (black) out.black = black;
    }
    // A repository formatting a language with a tool poly does not run (yapf, SQLFluff, taplo, yamlfmt): poly's
    // formatter of that language does not format it (lib/run/plan.ts).
    const kept = await this.#keptStyle.forDir(dir, top);
    if (kept) out[KEPT_STYLE] = kept;
    // yamllint's rules: the YAML layout prettier writes by poly's defaults (lib/run/plan.ts).
    if (wanted("prettier")) {
      const yamllint = await this.#unhonouredAt(dir, () => this.#yamllint.forDir(dir, top));
      if (yamllint) out[YAMLLINT] = yamllint;
    }
    if (wanted("flake8")) {
      // A repository linting its Python with flake8: flake8 lints it (lib/run/plan.ts).
      const flake8 = await this.#unhonouredAt(dir, () => this.#flake8.forDir(dir, top));
      if (flake8) out.flake8 = flake8;
    }
    if (wanted("biome")) {
      const found = await this.#biome.forDir(dir, top);
      if (found) out.biome = found;
      const manifest = await this.#biome.manifestFor(dir, top);
      if (manifest) out[NODE_MANIFEST] = manifest;
    }
    // A biome file of biome's own (not prettier's or oxfmt's options mapped onto it) governs this directory.
    const biomeFile = out.biome !== undefined && !out.biome.style;
    // biome's formatting hook: biome formats the files it takes, under its own file or biome's defaults (not
    // poly's `[defaults]`, nor a prettier file biome does not read), the hook's settings over them.
    const biomeHook = wanted("biome") ? engineHook(preCommit, "biome") : undefined;
    if (biomeHook && !(biomeFile && out.biome!.unhonoured)) {
      const own = biomeFile ? out.biome : undefined;
      const hooked = await this.#underHook(
        own ?? preCommit!,
        "biome",
        () => Promise.resolve(biomeHooked(own, biomeHook, top, shown)),
      );
      if (hooked) out.biome = hooked;
    }
    // biome formats the languages it formats here: under its file of its own or its hook.
    const biomeOwn = out.biome !== undefined && !out.biome.style;
    if (["biome", "prettier", "oxfmt", "webfmt", "dprint"].some(wanted)) {
      const style = await this.#biome.styleFor(dir, top);
      // A prettier or oxfmt file poly cannot read stops no run: beside a biome file of biome's own (or with biome
      // off) it leaves YAML, HTML, Vue and Markdown to poly's defaults, as before poly read it for them; elsewhere
      // formatting under it is an error saying why (`unmapped`).
      const quiet = style?.unmapped && (biomeOwn || (!out.biome && !wanted("biome")));
      if (style && !quiet) out[FORMAT_STYLE] = style;
    }
    if (wanted("dprint")) {
      // A repository formatting with dprint's own command line (lib/run/plan.ts: what its plugins format).
      const own = await this.#unhonouredAt(dir, () => this.#dprint.forDir(dir, top));
      if (own) out.dprint = own;
    }
    const found = wanted("dprint") || wanted("deno-lint") ? await this.#deno.forDir(dir, top) : undefined;
    if (wanted("dprint") && found) {
      const deno = found.fmt;
      const style = out[FORMAT_STYLE];
      // A `deno.json` with `fmt` governs where it is nearer than a prettier or oxfmt file; one without, where no other
      // formatter's file governs at all (a Deno project's formatter is `deno fmt`; a `deno.json` in a corner of a
      // prettier, oxfmt or biome repository is not its formatter).
      const governs = deno.explicit
        ? !style || (deno.config.root !== style.root && isInside(style.root, deno.config.root))
        : !style && !biomeOwn;
      if (governs) {
        out[DENO_FMT] = deno.config;
        delete out[FORMAT_STYLE];
      }
    }
    if (wanted("deno-lint") && found) {
      // `deno lint` lints where Deno's formatter governs (a Deno project) or a `lint` key says so, except where a
      // biome file of biome's own governs.
      if ((found.lint.explicit || out[DENO_FMT]) && !biomeFile) out[DENO_LINT] = found.lint.config;
    }
    const host: [string, () => Promise<NativeEngineConfig | undefined>][] = [
      ["shellcheck", () => this.#host.shellcheck(dir, top)],
      ["markdownlint", () => this.#markdownlint.forDir(dir, top)],
      ["clang-format", () => this.#host.clangFormat(dir, top)],
      ["rustfmt", () => this.#host.rustfmt(dir, top)],
      ["luafmt", () => this.#host.stylua(dir, top)],
      ["mago", () => this.#mago.forDir(dir, top)],
    ];
    for (const [id, read] of host) {
      if (!wanted(id)) continue;
      const found = await this.#unhonouredAt(dir, read);
      if (found) out[id] = found;
    }
    // clang-format's hook: the style its `--style` names (the nearest `.clang-format` by default, else its fallback).
    if (wanted("clang-format")) {
      await this.#hookOver(
        out,
        "clang-format",
        false,
        preCommit,
        top,
        async (own, hook) => withClangFormatRelease(await clangFormatHooked(own, hook, top, shown), hook, shown),
      );
    }
    // shellcheck's hook: its flags over the .shellcheckrc (none read with `--norc`), as shellcheck applies them.
    if (wanted("shellcheck")) {
      await this.#hookOver(
        out,
        "shellcheck",
        true,
        preCommit,
        top,
        (own, hook) => shellcheckHooked(own, hook, top, shown),
      );
    }
    // StyLua's hook: its flags over the stylua.toml, or over StyLua's defaults with the .editorconfig over them.
    if (wanted("luafmt")) {
      await this.#hookOver(out, "luafmt", false, preCommit, top, (own, hook) => styluaHooked(own, hook, top, shown));
    }
    // shfmt's hook: its printer and parser flags, where it gives any (shfmt then reads no `.editorconfig`).
    const shfmt = wanted("shfmt") ? engineHook(preCommit, "shfmt") : undefined;
    if (shfmt) {
      const hooked = await this.#underHook(preCommit!, "shfmt", () =>
        this.#unhonouredAt(top, () => {
          const options = shfmtHookOptions(shfmt, shown);
          return Promise.resolve(options && { files: [], options, root: top, hook: shfmt.id });
        }));
      if (hooked) out.shfmt = hooked;
    }
    // markdownlint-cli's hook: its `--enable` / `--disable` over the configuration (markdownlint's defaults without one).
    if (wanted("markdownlint")) {
      await this.#hookOver(out, "markdownlint", true, preCommit, top, (own, hook) => ({
        ...beneathHook(own, top),
        options: { ...own?.options, ...markdownlintHookRules(hook, shown) },
        hook: hook.id,
      }));
    }
    // Where an oxlint file governs, oxlint lints (lib/run/plan.ts); one poly cannot honour errors oxlint's files only.
    if (wanted("oxlint")) {
      const found = await this.#oxlint.forDir(dir, top);
      if (found) out.oxlint = found;
    }
    // Where ESLint lints and biome otherwise would (no biome file of its own, no oxlint file, no `deno lint`).
    if (wanted("eslint") && !biomeFile && !out.oxlint && !out[DENO_LINT]) {
      const eslint = await this.#eslint.forDir(dir, top);
      if (eslint) out[ESLINT] = eslint;
    }
    const editorconfig = await this.#editorconfig.forDir(dir, top);
    if (editorconfig) out.editorconfig = editorconfig;
    return out;
  }

  /**
   * What `read` gives; a file poly cannot honour (a {@link ConfigError}: it does not parse, a key poly cannot apply)
   * as the configuration saying why ({@link unhonouredConfig}; biome's and oxlint's readers make theirs keeping what
   * they can read of the file). `path`: the engine's file, when known.
   */
  async #unhonouredAt<T extends NativeEngineConfig | undefined>(
    dir: string,
    read: () => Promise<T>,
    path?: string,
  ): Promise<T | NativeEngineConfig> {
    try {
      return await read();
    } catch (e) {
      return await unhonouredConfig(this.#files, e, dir, path);
    }
  }

  /**
   * `config` with the native layer of `dir` attached: `native`, the native files
   * appended to `sources`, and a `hash` over both. One object per distinct
   * (config, native files) pair, so plans and settings stay shared.
   */
  async apply(dir: string, config: ResolvedConfig): Promise<ResolvedConfig> {
    const native = await this.layer(dir, config);
    const files = Object.values(native).flatMap((n) => n.files);
    if (Object.keys(native).length === 0) return config;
    // Most engines' configurations are one object per file they come from, shared by the folders under it (a
    // monorepo's hundreds of packages share one biome.json): the objects themselves are the key ({@link serialOf}).
    // Two equal objects made apart (a reader that builds one per folder) derive two configurations with one hash.
    const entries = Object.entries(native);
    const key = `${config.hash}\0${entries.map(([id, n]) => `${id}\0${serialOf(n)}`).join("\0")}`;
    let found = this.#derived.get(key);
    if (!found) {
      found = (() => {
        // Without a native file (ruff's built-in excludes only), the configuration is what it was.
        if (files.length === 0 && !entries.some(([, n]) => n.unhonoured)) return { ...config, native };
        const sources = [...config.sources];
        for (const f of files) if (!sources.includes(f.path)) sources.push(f.path);
        const hash = fingerprint({
          config: config.hash,
          native: Object.fromEntries(entries.map(([id, n]) => [id, portableFingerprint(id, n, config.dir)])),
        });
        return { ...config, hash, sources, native };
      })();
      this.#derived.set(key, found);
    }
    return found;
  }
}

/**
 * A number naming one object: a key of {@link NativeConfigs.apply}'s derived configurations, where each engine's
 * configuration is one object per file (or folder) it comes from (its text, made into the key, cost each of a
 * monorepo's hundreds of packages a copy of the shared biome configuration's JSON).
 */
const serials = new WeakMap<object, number>();
let nextSerial = 0;
function serialOf(value: object): number {
  let n = serials.get(value);
  if (n === undefined) serials.set(value, n = nextSerial++);
  return n;
}

const portable = new WeakMap<object, Map<string, string>>();

/**
 * The fingerprint of one engine's native configuration (`id` its layer key) as seen from `dir` (a configuration's
 * directory): its paths relative to `dir` and its files' texts left out (their hashes stay), so the same repository
 * fingerprints the same wherever it is checked out. Made once per object and directory. A `package.json` biome reads
 * ({@link NODE_MANIFEST}) is fingerprinted by where it is and its hash: its options are fields of the file as written
 * (a monorepo has hundreds, each with its dependency lists, not copied, sorted and hashed again).
 */
function portableFingerprint(id: string, value: NativeEngineConfig, dir: string): string {
  let byDir = portable.get(value);
  if (!byDir) portable.set(value, byDir = new Map());
  let found = byDir.get(dir);
  if (found === undefined) {
    const rel = (p: string) => relative(dir, p).split(sep).join("/") || ".";
    found = id === NODE_MANIFEST
      ? fingerprint({ root: rel(value.root), files: value.files.map((f) => [rel(f.path), f.hash]) })
      : fingerprint(JSON.parse(JSON.stringify(
        value,
        (k, v) =>
          k === "file"
            ? undefined
            : (k === "base" || k === "root" || k === "path" || k === "dir")
            ? rel(v)
            : k === "sourceDirs"
            ? (v as string[]).map(rel)
            : v,
      )));
    byDir.set(dir, found);
  }
  return found;
}

/**
 * ruff with no file of its own: its defaults, with its default `exclude` relative to the repository root, and the
 * Python version a `pyproject.toml`'s `requires-python` names (that file then governs, and is listed).
 */
function defaultRuff(
  top: string,
  python?: { file: NativeSource; version: string },
  declaring?: NativeSource,
): NativeEngineConfig {
  return {
    files: [...python ? [python.file] : [], ...declaring && declaring.path !== python?.file.path ? [declaring] : []],
    options: python ? { "target-version": python.version } : {},
    root: top,
    exclude: { all: RUFF_DEFAULT_EXCLUDE.map((pattern) => ({ pattern, base: top })) },
    ...(python ? { origins: { "target-version": python.file.path } } : {}),
  };
}

/**
 * The `otherRelease` of a ruff the repository declares (lib/config/native/python_deps.ts) whose release formats by
 * another year's style guide than poly's ruff, or undefined.
 */
function ruffRelease(declared: Declared, display: (path: string) => string): NativeEngineConfig["otherRelease"] {
  const year = declared.release ? ruffStyleGuide(declared.release) : undefined;
  const ours = ruffStyleGuide(RUFF_RELEASE);
  if (year === undefined || year === ours) return undefined;
  return {
    tool: "ruff",
    spec: declared.release!,
    from: display(declared.lockfile ?? declared.file.path),
    clause: `whose ${year} style guide poly's ruff ${RUFF_RELEASE} (the ${ours} one) does not keep`,
  };
}

function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * Why the engine's native configuration keeps `absPath` from it for `kind`
 * ("lint" or "fmt"), or undefined: ruff's `exclude`/`include`/`lint.exclude`/
 * `format.exclude` (checked on the file and each directory above it up to the
 * configuration's root), biome's `files.includes` and `linter`/`formatter` `includes`, `.clang-format-ignore`,
 * oxlint's `ignorePatterns`,
 * markdownlint-cli2's `ignores`, Mago's `[source]` and `[formatter] excludes`.
 */
export function nativeExcluded(
  engine: string,
  kind: "lint" | "fmt",
  native: NativeEngineConfig,
  absPath: string,
): string | undefined {
  if (native.deno) return denoExcluded(native, absPath, kind);
  if (native.dprint) return kind === "fmt" ? dprintExcluded(native, absPath) : undefined;
  if (kind === "fmt") {
    const why = styleIgnored(native, absPath);
    if (why) return why;
  }
  if (engine === "biome") return biomeExcluded(native, kind, absPath);
  if (engine === "clang-format") return kind === "fmt" ? clangFormatExcluded(native, absPath) : undefined;
  if (engine === "black") return blackExcluded(native, absPath);
  if (engine === "flake8") return kind === "lint" ? flake8Excluded(native, absPath) : undefined;
  if (engine === "oxlint") return kind === "lint" ? oxlintExcluded(native, absPath) : undefined;
  if (engine === "markdownlint") return markdownlintExcluded(native, absPath);
  if (engine === "mago") return magoExcluded(native, absPath);
  if (engine !== "ruff") return undefined;
  // Of the TOML files, ruff reads its settings files (`RUF201`); the rest are the TOML engine's alone.
  if (absPath.endsWith(".toml") && !RUFF_SETTINGS_FILES.has(basename(absPath))) {
    return "not one of ruff's settings files";
  }
  const where = native.files.at(-1)?.path;
  const named = (key: string) => where ? `${key} in "${relative(dirname(absPath), where)}"` : `ruff's default ${key}`;
  const lists = [
    ["exclude", native.exclude?.all],
    [kind === "lint" ? "lint.exclude" : "format.exclude", kind === "lint" ? native.exclude?.lint : native.exclude?.fmt],
  ] as const;
  for (let p = absPath;; p = dirname(p)) {
    for (const [key, list] of lists) {
      const hit = list?.find((e) => ruffMatches(e, p));
      if (hit) return `excluded from ruff by "${hit.pattern}" (${named(key)})`;
    }
    if (p === native.root || dirname(p) === p || !isInside(native.root, dirname(p))) break;
  }
  if (native.include && !native.include.some((e) => ruffMatches(e, absPath))) {
    return `not in ruff's include (${named("include")})`;
  }
  // ruff 0.16.9's default include names `*.pyw` only under `preview = true` at the top (`lint.preview` does not count).
  if (!native.include && absPath.endsWith(".pyw") && native.options.preview !== true) {
    return "not in ruff's default include (a .pyw file is, with `preview = true`)";
  }
  return undefined;
}

/**
 * The `target-version` ruff's `per-file-target-version` gives `absPath` (the first glob that matches, a negated one
 * matching the files it does not name), or undefined where none does.
 */
export function nativeTargetVersion(native: NativeEngineConfig, absPath: string): string | undefined {
  return native.perFileTarget?.find((p) => perFileApplies(p, absPath))?.version;
}

/** The codes ruff's `per-file-ignores` silence in `absPath`. */
export function nativeIgnoredCodes(native: NativeEngineConfig | undefined, absPath: string): string[] {
  const out: string[] = [];
  for (const p of native?.perFileIgnores ?? []) {
    if (perFileApplies(p, absPath)) out.push(...(p.codes ?? []));
  }
  return out;
}

/** Whether an entry of a ruff per-file table applies to `absPath`: its glob matches, or, negated, does not. */
function perFileApplies(p: NativePattern, absPath: string): boolean {
  return ruffMatches(p, absPath) !== Boolean(p.negated);
}
