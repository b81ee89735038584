/**
 * Which engines run on a file, with which settings: the language's lint engines
 * (plus cross-cutting ones) for `poly lint`, its one formatter for `poly fmt`.
 *
 * @module
 */
import { basename, dirname } from "node:path";
import type { ResolvedConfig } from "../config/types.ts";
import { engineById, ENGINES } from "../engines/registry.ts";
import { governingNative } from "../engines/settings.ts";
import { pluginOf } from "../engines/dprint/mod.ts";
import { DENO_LANGUAGES } from "../config/native/deno.ts";
import { eslintRunner, runnerName } from "../config/native/eslint.ts";
import { markdownLayout } from "../config/native/markdownlint.ts";
import {
  configuresLint,
  DENO_FMT,
  DENO_LINT,
  type DprintOptions,
  editorconfigDefaults,
  editorconfigProps,
  ESLINT,
  FORMAT_STYLE,
  KEPT_STYLE,
  nativeExcluded,
  nativeTargetVersion,
  NODE_MANIFEST,
  PRE_COMMIT,
  shfmtEditorconfig,
  shfmtIgnoredBy,
  styluaEditorconfig,
  YAMLLINT,
} from "../config/native/mod.ts";
import { yamlLayout } from "../config/native/yamllint.ts";
import { PYLINT } from "../config/native/kept_style.ts";
import { editorconfigStyle, editorconfigToBiome, LANGUAGE_PLUGINS, stylePlugins } from "../config/native/prettier.ts";
import { mergeTables, type Table, tableOf } from "../config/table.ts";
import { ConfigError } from "../errors/mod.ts";
import type { EngineSettings, EngineSpec, Language } from "../engines/types.ts";
import type { NativeEngineConfig } from "../config/native/types.ts";
import {
  engineHook,
  hookTakes,
  PRE_COMMIT_FILE,
  type PreCommitHook,
  type PreCommitOptions,
} from "../config/native/pre_commit.ts";

/** One engine to run on a file. */
export interface EnginePlan {
  id: string;
  settings: EngineSettings;
  /**
   * Where the repository formats with another release of this formatter than poly's ({@link otherRelease}): why a
   * change it would make is not made, the file skipped saying so. A file it leaves as it is is checked: both releases
   * lay it out alike.
   */
  releaseDiffers?: string;
}

/** The engines for one file, or why there are none. */
export interface FilePlan {
  engines: EnginePlan[];
  /** Set when the language has no engine of its own (cross-cutting engines may still run). */
  noEngine?: string;
}

const LANGUAGE_NAMES: Partial<Record<Language, string>> = {
  javascript: "JavaScript",
  typescript: "TypeScript",
  json: "JSON",
  css: "CSS",
  graphql: "GraphQL",
  toml: "TOML",
  yaml: "YAML",
  sql: "SQL",
  php: "PHP",
  html: "HTML",
  cpp: "C++",
  csharp: "C#",
  unknown: "this file type",
};

/** A language's display name ("Python", "C++"). */
export function languageName(language: Language): string {
  return LANGUAGE_NAMES[language] ?? language.charAt(0).toUpperCase() + language.slice(1);
}

function table(config: ResolvedConfig, kind: "lint" | "fmt", language: Language, id: string) {
  return config.data[kind][language]?.[id] as Record<string, unknown> | undefined;
}

function enabled(spec: EngineSpec, config: ResolvedConfig, kind: "lint" | "fmt", language: Language): boolean {
  return notOff(spec.id, config, kind, language) &&
    (spec.defaultEnabled || table(config, kind, language, spec.id) !== undefined);
}

/**
 * Whether poly.toml leaves engine `id` on for `language`: not `[tools.<id>] enabled = false`, not outside its
 * `languages`, not `[<kind>.<language>.<id>] enabled = false`.
 */
function notOff(id: string, config: ResolvedConfig, kind: "lint" | "fmt", language: Language): boolean {
  const tool = config.data.tools[id];
  if (tool && tool.enabled === false) return false;
  if (tool?.languages && !(tool.languages as string[]).includes(language)) return false;
  return table(config, kind, language, id)?.enabled !== false;
}

/**
 * Settings by config, then by engine, kind and language: every file a run plans
 * under one configuration shares one settings object (it is plain data; keyed
 * caches downstream remember work per object).
 */
const shared = new WeakMap<ResolvedConfig, Map<string, EngineSettings>>();

function settingsFor(
  spec: EngineSpec,
  config: ResolvedConfig,
  kind: "lint" | "fmt",
  language: Language,
): EngineSettings {
  let own = shared.get(config);
  if (!own) shared.set(config, own = new Map());
  const key = `${spec.id}\0${kind}\0${language}`;
  let settings = own.get(key);
  if (!settings) own.set(key, settings = buildSettings(spec, config, kind, language));
  return settings;
}

function buildSettings(
  spec: EngineSpec,
  config: ResolvedConfig,
  kind: "lint" | "fmt",
  language: Language,
): EngineSettings {
  const settings = baseSettings(spec, config, kind, language);
  // A formatter of poly's defaults under a linter's rules: the layout they check (poly.toml's keys over it).
  const layout = settings.native ? undefined : linterLayout(spec, language, config);
  if (!layout) return settings;
  return {
    ...settings,
    defaults: { ...settings.defaults, ...layout.defaults },
    tool: { ...layout.tool, ...settings.tool },
  };
}

/**
 * The repository's linter whose rules check the layout poly's default formatter of `language` writes, so that the
 * linter does not reject what `poly fmt --fix` wrote: markdownlint's configuration for dprint's Markdown
 * (lib/config/native/markdownlint.ts: mkdocs/mkdocs had 463 findings of its own written), yamllint's for prettier's
 * YAML (lib/config/native/yamllint.ts). `defaults` and `tool` are the formatter's settings that write it, `cannot` what
 * it cannot write, `unhonoured` why the linter's configuration cannot be read. Undefined where no such linter governs
 * (a markdownlint configuration that keeps files only, or whose linting is off, does not).
 */
function linterLayout(spec: EngineSpec, language: Language, config: ResolvedConfig): LinterLayout | undefined {
  if (spec.id === "dprint" && language === "markdown") {
    const native = config.native?.markdownlint;
    if (!native || native.files.length === 0 || native.ignoreOnly || native.unhonoured) return undefined;
    if (!readsNative(config, "markdownlint") || !notOff("markdownlint", config, "lint", "markdown")) return undefined;
    const { dprint, cannot } = markdownLayout(native.options);
    return { linter: "markdownlint", file: native.files.at(-1)?.path, defaults: {}, tool: dprint, cannot };
  }
  if (spec.id === "prettier" && language === "yaml") {
    const native = config.native?.[YAMLLINT];
    if (!native || !readsNative(config, "prettier")) return undefined;
    const found = { linter: "yamllint", file: native.files[0]?.path };
    if (native.unhonoured) return { ...found, defaults: {}, tool: {}, cannot: [], unhonoured: native.unhonoured };
    const { prettier: { line_length, indent_width, ...tool }, cannot } = yamlLayout(native.options);
    const defaults = {
      ...(typeof line_length === "number" ? { line_length } : {}),
      ...(typeof indent_width === "number" ? { indent_width } : {}),
    };
    return { ...found, defaults, tool, cannot };
  }
  return undefined;
}

/** {@link linterLayout}'s answer. */
interface LinterLayout {
  linter: string;
  /** The linter's configuration file that governs. */
  file?: string;
  defaults: Partial<EngineSettings["defaults"]>;
  tool: Table;
  cannot: string[];
  unhonoured?: string;
}

/**
 * Why `spec`, formatting `language` by poly's defaults, does not format it where the repository's linter asks for a
 * layout the formatter cannot write ({@link linterLayout}: markdownlint's MD007 `indent: 4`, yamllint's two spaces
 * before a comment under `extends: default`), or its configuration cannot be read; `[fmt.<lang>.<id>]` formats it all
 * the same.
 */
function linterKeepsStyle(spec: EngineSpec, language: Language, config: ResolvedConfig): string | undefined {
  const layout = linterLayout(spec, language, config);
  if (!layout || settingsFor(spec, config, "fmt", language).native) return undefined;
  if (layout.unhonoured) {
    return `not formatted: the repository's ${layout.linter} configuration cannot be read (${layout.unhonoured}); ` +
      `[fmt.${language}.${spec.id}] in poly.toml formats it with ${spec.id}`;
  }
  if (layout.cannot.length === 0) return undefined;
  return notFormatted(
    language,
    `${layout.linter}${layout.file ? ` (${basename(layout.file)})` : ""}`,
    `, whose ${layout.cannot.join(", ")} ${spec.id} cannot write`,
    spec.id,
  );
}

function baseSettings(
  spec: EngineSpec,
  config: ResolvedConfig,
  kind: "lint" | "fmt",
  language: Language,
): EngineSettings {
  const d = config.data.defaults;
  const style = config.native?.[FORMAT_STYLE];
  // prettier and oxfmt take the file under the switch of the tool whose file it is (`[tools.oxfmt]` for oxfmt's).
  const own = readsNative(
    config,
    spec.id === "prettier" || spec.id === "oxfmt" ? style?.style?.tool ?? spec.id : spec.id,
  );
  return {
    defaults: {
      line_length: d.line_length,
      line_ending: d.line_ending,
      final_newline: d.final_newline,
      trim_trailing_whitespace: d.trim_trailing_whitespace,
      ...(d.indent_width ? { indent_width: d.indent_width } : {}),
    },
    tool: table(config, kind, language, spec.id) ?? {},
    configDir: config.dir,
    ...(config.native?.[spec.id] && spec.id !== "dprint" ? { native: config.native[spec.id] } : {}),
    // `deno.json`'s `fmt`: dprint's configuration for what `deno fmt` formats with it.
    ...(spec.id === "dprint" && DENO_LANGUAGES.has(language) && config.native?.[DENO_FMT] && own
      ? { native: config.native[DENO_FMT] }
      : {}),
    // A `dprint.json`'s, for the languages of the plugins it lists (`dprintGoverns`).
    ...(spec.id === "dprint" && own && dprintGoverns(config, language) ? { native: config.native!.dprint } : {}),
    // prettier's or oxfmt's configuration, its ignores included (`nativeExcluded`): the configuration of prettier
    // itself and of the other formatters of the languages those tools format (biome's come mapped onto its own).
    ...(style && own && styleGoverned(spec.id, language) ? { native: style } : {}),
    // biome's manifest: for lint, its domains and `type`; for format, only a `"type": "commonjs"` matters (a `.js`
    // file is then a script, which biome parses, and formats, as one).
    ...(spec.id === "biome" && config.native?.[NODE_MANIFEST] &&
        (kind === "lint" || config.native[NODE_MANIFEST].options.type === "commonjs")
      ? { manifest: config.native[NODE_MANIFEST] }
      : {}),
    ...(spec.crossCutting
      ? { rules: { ...config.data.rules, dirs: config.rulesDirs } as Record<string, unknown> }
      : {}),
  };
}

/**
 * Whether prettier's or oxfmt's options are `spec`'s configuration for `language`: YAML's formatter (prettier itself),
 * and the formatters of the other languages those tools format that have no configuration of their own (HTML and Vue,
 * Markdown). biome's come mapped onto its own configuration.
 */
function styleGoverned(id: string, language: Language): boolean {
  return id === "prettier" || id === "oxfmt" || (id === "webfmt" && (language === "html" || language === "vue")) ||
    (id === "dprint" && language === "markdown");
}

/** Plans by config, then by kind and language: a run plans thousands of files under a few configs. */
const plans = new WeakMap<ResolvedConfig, Map<string, FilePlan>>();

function memo(config: ResolvedConfig, key: string, make: () => FilePlan): FilePlan {
  let own = plans.get(config);
  if (!own) plans.set(config, own = new Map());
  let plan = own.get(key);
  if (!plan) own.set(key, plan = make());
  return plan;
}

/** The reasons {@link planLint} and {@link planFormat} give where poly has no engine for the job at all. */
const NO_ENGINE_AT_ALL = /^no (?:lint engine|formatter) for /;

/**
 * Why a run skips the job of `plan` (no engine of the file's own) where this repository's configuration decides it (a
 * formatter poly does not run keeps the language's style, ...), or undefined: also where poly has no engine for the
 * job at all (`no formatter for PHP`), which is no skip of the repository's (`poly doctor`).
 */
export function planSkip(plan: FilePlan): string | undefined {
  const why = plan.engines.length === 0 ? plan.noEngine : undefined;
  return why && !NO_ENGINE_AT_ALL.test(why) ? why : undefined;
}

/** The lint engines for a file of `language` under `config` (one shared, read-only plan per config and language). */
export function planLint(language: Language, config: ResolvedConfig): FilePlan {
  return memo(config, `lint\0${language}`, () => makeLintPlan(language, config));
}

function makeLintPlan(language: Language, config: ResolvedConfig): FilePlan {
  const deno = denoLints(language, config);
  const oxlint = oxlintLints(language, config);
  // Where `deno lint` governs, or an oxlint file without a biome file of biome's own beside it, that tool lints in
  // biome's place, unless poly.toml configures biome's linting there.
  const instead = (deno || (oxlint && !biomeFile(config))) && table(config, "lint", language, "biome") === undefined;
  // Where flake8's configuration governs and the repository does not configure ruff's linting, flake8 lints in ruff's
  // place, unless poly.toml configures ruff's linting there.
  const flake8 = flake8Lints(language, config);
  // Where ESLint governs (and none of those), the repository's ESLint lints in biome's place.
  const eslint = !deno && !oxlint && eslintLints(language, config);
  const chosen = ENGINES.filter((e) =>
    e.lintLanguages.includes(language) &&
    // ruff lints TOML only as its own settings files, where a ruff configuration governs (lib/config/native/mod.ts).
    !(e.id === "ruff" && language === "toml" && !config.native?.ruff?.files.length) &&
    (deno && e.id === "deno-lint" || oxlint && e.id === "oxlint" || flake8 && e.id === "flake8" ||
      eslint && e.id === "eslint" ||
      enabled(e, config, "lint", language) && !((instead || eslint) && e.id === "biome") &&
        !(flake8 && e.id === "ruff"))
  );
  const engines = chosen.map((e) => {
    const settings = settingsFor(e, config, "lint", language);
    const hooks = preCommitHooks(e, language, config, settings, "lint");
    return { id: e.id, settings: hooks ? { ...settings, hooks } : settings };
  });
  const own = chosen.filter((e) => !e.crossCutting);
  return own.length > 0 ? { engines } : { engines, noEngine: `no lint engine for ${languageName(language)}` };
}

/** The languages ESLint lints (with its plug-ins: Vue, Svelte and Astro files too) in biome's place. */
const ESLINT_LANGUAGES: ReadonlySet<Language> = new Set(["javascript", "typescript", "vue", "svelte", "astro"]);

/**
 * Whether the repository's ESLint lints `language` under `config` in biome's place: its configuration governs
 * (lib/config/native/eslint.ts), the language is one it lints, poly.toml has not turned eslint off
 * (`[tools.eslint] enabled = false`: biome then lints) nor configured biome's linting of it (`[lint.<lang>.biome]`).
 */
function eslintLints(language: Language, config: ResolvedConfig): boolean {
  return config.native?.[ESLINT] !== undefined && ESLINT_LANGUAGES.has(language) &&
    notOff("eslint", config, "lint", language) && table(config, "lint", language, "biome") === undefined;
}

/**
 * Whether `deno lint` lints `language` under `config`: a `deno.json` governs (lib/config/native/mod.ts), the language is
 * one it lints, and poly.toml has not turned it off (`[tools.deno-lint]`, `[lint.<lang>.deno-lint] enabled = false`).
 */
function denoLints(language: Language, config: ResolvedConfig): boolean {
  return config.native?.[DENO_LINT] !== undefined && engineById("deno-lint")!.lintLanguages.includes(language) &&
    notOff("deno-lint", config, "lint", language);
}

/**
 * Whether oxlint lints `language` under `config` without being turned on in poly.toml: an oxlint file governs
 * (lib/config/native/oxlint.ts), the language is one it lints, and poly.toml has not turned it off (`[tools.oxlint]`,
 * `[lint.<lang>.oxlint] enabled = false`, `native_config = false`).
 */
function oxlintLints(language: Language, config: ResolvedConfig): boolean {
  return config.native?.oxlint !== undefined && engineById("oxlint")!.lintLanguages.includes(language) &&
    notOff("oxlint", config, "lint", language);
}

/**
 * Whether flake8 lints `language` under `config` in ruff's place: a flake8 configuration governs
 * (lib/config/native/flake8.ts), the language is Python, poly.toml has not turned flake8 off nor configured ruff's
 * linting of it, and the ruff configuration governing it (if any) does not configure ruff's linting (a `lint` table or
 * a rule selection): a repository that configures both lints with ruff.
 */
function flake8Lints(language: Language, config: ResolvedConfig): boolean {
  if (language !== "python" || !config.native?.flake8 || !notOff("flake8", config, "lint", language)) return false;
  if (table(config, "lint", language, "ruff") !== undefined) return false;
  const ruff = config.native.ruff;
  return !ruff || (!ruff.unhonoured && !configuresLint(ruff));
}

/**
 * Why ruff does not format Python where the repository keeps its style with flake8 (flake8 lints it in ruff's place:
 * {@link flake8Lints}) and configures no formatter for it (no black table, no ruff `format` table or `line-length`, no
 * formatter poly does not run): pycodestyle's rules are its style, which ruff's layout would rewrite in most files, at a
 * width flake8 then refuses (celery/celery: `max-line-length = 117`, 338 of its 419 Python files called unformatted at
 * poly's width of 120); or where its pre-commit hook runs flake8 without a flake8 file. `[fmt.python.ruff]` formats it
 * with ruff all the same. Undefined where ruff formats.
 */
function flake8KeepsStyle(spec: EngineSpec, language: Language, config: ResolvedConfig): string | undefined {
  if (spec.id !== "ruff" || language !== "python") return undefined;
  const ruff = config.native?.ruff;
  // flake8's pre-commit hook, where no flake8 file says more: the style it holds is flake8's defaults and the hook's
  // arguments (a repository that configures ruff's linting lints with ruff).
  const hook = readsNative(config, "flake8") && table(config, "lint", language, "ruff") === undefined &&
      !(ruff && !ruff.unhonoured && configuresLint(ruff))
    ? engineHook(config.native?.[PRE_COMMIT], "flake8", true)
    : undefined;
  if (!flake8Lints(language, config) && !hook) return undefined;
  if (ruffFormats(config)) return undefined;
  const file = config.native?.flake8?.files.at(-1)?.path;
  const by = file ? `flake8 (${basename(file)})` : `flake8 (its "${hook!.id}" hook in ${PRE_COMMIT_FILE})`;
  return notFormatted(language, by, " and configures no formatter for it", "ruff");
}

/** Whether the ruff configuration governing `config`'s directory formats Python: a `format` table, a `line-length`, a hook. */
function ruffFormats(config: ResolvedConfig): boolean {
  const ruff = config.native?.ruff;
  return ruff !== undefined && (ruff.hook !== undefined || ruff.files.length > 0 &&
      (ruff.options.format !== undefined || ruff.options["line-length"] !== undefined));
}

/**
 * Why ruff does not format Python where the repository's pylint sets its width (`max-line-length`) and nothing
 * configures a formatter for it, as {@link flake8KeepsStyle}: ruff's layout at poly's width would break pylint's
 * (linux-system-roles/network: `max-line-length=88`, 370 more `line-too-long` after `poly fmt --fix`).
 */
function pylintKeepsStyle(spec: EngineSpec, language: Language, config: ResolvedConfig): string | undefined {
  if (spec.id !== "ruff" || language !== "python" || !readsNative(config, "ruff") || ruffFormats(config)) {
    return undefined;
  }
  const by = config.native?.[KEPT_STYLE]?.options[PYLINT];
  return typeof by === "string" ? notFormatted(language, by, " and configures no formatter for it", "ruff") : undefined;
}

/**
 * Whether biome's own configuration governs `config`'s directory: a biome file of biome's own, or biome's formatting
 * hook in `.pre-commit-config.yaml` (not prettier's or oxfmt's options mapped onto biome).
 */
function biomeOwn(config: ResolvedConfig): boolean {
  const biome = config.native?.biome;
  return biome !== undefined && !biome.style;
}

/** Whether a biome file of biome's own governs `config`'s directory (its formatting hook alone lints nothing). */
function biomeFile(config: ResolvedConfig): boolean {
  return biomeOwn(config) && config.native!.biome!.files.length > 0;
}

/**
 * The formatter for a file of `language`: the engine named in `[fmt.<lang>.<tool>]`
 * if any, else the first enabled engine in registry order.
 */
export function planFormat(language: Language, config: ResolvedConfig): FilePlan {
  return memo(config, `fmt\0${language}`, () => makeFormatPlan(language, config));
}

function makeFormatPlan(language: Language, config: ResolvedConfig): FilePlan {
  const candidates = ENGINES.filter((e) => e.formatLanguages.includes(language) && enabled(e, config, "fmt", language));
  const named = candidates.find((e) => table(config, "fmt", language, e.id) !== undefined);
  const plugged = named ? undefined : pluginFormats(language, config);
  if (plugged) return { engines: [], noEngine: plugged };
  const spec = named ?? biomeMarkupFormatter(candidates, language, config) ??
    dprintFormatter(candidates, language, config) ?? denoFormatter(candidates, language, config) ??
    styleFormatter(candidates, language, config) ?? blackFormatter(candidates, language, config) ??
    candidates.find((e) => byDefault(e, language));
  if (!spec) return { engines: [], noEngine: `no formatter for ${languageName(language)}` };
  const kept = named
    ? undefined
    : spec.id === "biome"
    ? biomeFormatterOff(language, config) ?? eslintKeepsStyle(language, config)
    : styleKept(spec, language, config) ??
      flake8KeepsStyle(spec, language, config) ??
      pylintKeepsStyle(spec, language, config) ??
      linterKeepsStyle(spec, language, config) ??
      (spec.id === "webfmt" ? eslintKeepsStyle(language, config, spec.id) : undefined);
  if (kept) return { engines: [], noEngine: kept };
  const settings = settingsFor(spec, config, "fmt", language);
  const hooks = named ? undefined : preCommitHooks(spec, language, config, settings, "fmt");
  // A hook that takes the language says what becomes of its files (kept by a tool poly does not run, or formatted).
  const unconfigured = named || hooks ? undefined : unconfiguredJava(spec, language, config);
  if (unconfigured) return { engines: [], noEngine: unconfigured };
  const release = named ? undefined : otherRelease(spec, language, config);
  const engine = { id: spec.id, settings: hooks ? { ...settings, hooks } : settings };
  return { engines: [release ? { ...engine, releaseDiffers: release } : engine] };
}

/**
 * The hooks of the repository's `.pre-commit-config.yaml` that concern `spec`'s formatting (`kind` "fmt") or linting
 * of `language` (lib/config/native/pre_commit.ts), narrowed to them with the language and kind named, or undefined:
 * the engine's own hook (black's, ruff's `ruff-format` or `ruff-check`, prettier's where its options are the hook's),
 * whose files are the ones it formats or lints, and, formatting, the hooks of formatters poly does not run that take
 * files of the language, which keep those files from it. A configuration poly cannot read is kept whole: the
 * engine's formatting says why (`unhonoured`). `[tools.<id>] native_config = false` reads none of it.
 */
function preCommitHooks(
  spec: EngineSpec,
  language: Language,
  config: ResolvedConfig,
  settings: EngineSettings,
  kind: "lint" | "fmt",
): NativeEngineConfig | undefined {
  const found = config.native?.[PRE_COMMIT];
  if (!found || !readsNative(config, spec.id)) return undefined;
  // A configuration poly cannot read stops the formatting it could have said something of; linting goes on.
  if (found.unhonoured) return kind === "fmt" ? found : undefined;
  const options = found.options as unknown as PreCommitOptions;
  // The engine stands in for a hook: its own, or prettier's where prettier's options come from that hook.
  const style = settings.native?.style && basename(settings.native.files[0]?.path ?? "") === PRE_COMMIT_FILE;
  const own = (h: PreCommitHook) => h.engine === spec.id || (h.engine === "prettier" && Boolean(style));
  const hooks = options.hooks.filter((h) =>
    h.languages.includes(language) && !h.lints === (kind === "fmt") && (h.engine === undefined || own(h))
  );
  if (hooks.length === 0) return undefined;
  const mine = hooks.find(own)?.id;
  // What picks a hook's files, and the file's name for messages: its arguments and pinned version are the engine's
  // settings already (or nothing poly runs), and the file's hash would make a `rev` bump a new cache key for every file.
  const narrowed = hooks.map(({ args: _args, version: _version, ...h }) => ({ ...h, args: [] }));
  return {
    ...found,
    files: found.files.map((f) => ({ path: f.path, hash: "" })),
    options: { ...options, hooks: narrowed, language, kind, ...(mine ? { own: mine } : {}) },
  };
}

/**
 * Why the pre-commit hooks attached to `id`'s formatting or linting (`config`, {@link preCommitHooks}) keep `path` from
 * it: a hook of a formatter poly does not run takes it, or the engine's own hook does not. Undefined where `id` takes it.
 */
function hooksKeep(id: string, config: NativeEngineConfig, path: string): string | undefined {
  if (config.unhonoured) return undefined;
  const options = config.options as unknown as PreCommitOptions & {
    language: Language;
    kind: "lint" | "fmt";
    own?: string;
  };
  const file = basename(config.files[0]?.path ?? PRE_COMMIT_FILE);
  for (const hook of options.hooks) {
    const not = hookTakes(config, hook, path);
    const own = hook.id === options.own;
    if (!own && !not) {
      // A tool poly runs for other languages (clang-format's hook on JavaScript and JSON).
      const runs = engineById(hook.tool) ? ` for ${languageName(options.language)}` : "";
      return notFormatted(
        options.language,
        `${hook.tool} (its "${hook.id}" hook in ${file})`,
        `, which poly does not run${runs}`,
        id,
      );
    }
    if (own && not) {
      const [done, does] = options.kind === "lint" ? ["linted", "lints"] : ["formatted", "formats"];
      return `not ${done}: the repository ${does} ${
        languageName(options.language)
      } with its "${hook.id}" hook in ${file}, which does not take it (${not})`;
    }
  }
  return undefined;
}

/**
 * Why biome (`id`; web_fmt for Vue, Svelte and Astro, fantastic-admin/basic's 931 of 976 Vue files under
 * `@antfu/eslint-config`) does not format `language` where the repository's ESLint lints it (lib/config/native/eslint.ts) and no
 * formatter is configured for it (no biome file of biome's own, prettier, oxfmt, dprint or `deno fmt` file governs):
 * such a repository keeps its style with ESLint's rules (`quotes`, `indent`, `@stylistic/*`, xo's, standard's,
 * `prettier/prettier`), which biome's defaults would rewrite in every file (expressjs/express: 140 of its 141
 * JavaScript files). `[fmt.<lang>.biome]` formats them with biome all the same; `[tools.eslint] enabled = false` as
 * where ESLint does not govern. Undefined where biome formats.
 */
function eslintKeepsStyle(language: Language, config: ResolvedConfig, id = "biome"): string | undefined {
  const eslint = config.native?.[ESLINT];
  if (!eslint || !ESLINT_LANGUAGES.has(language) || !notOff("eslint", config, "lint", language)) return undefined;
  // biome's formatting hook formats it (ESLint still lints).
  if (biomeOwn(config)) return undefined;
  const file = eslint.files[0]?.path;
  const by = `${runnerName(eslintRunner(eslint))}${file ? ` (${basename(file)})` : ""}`;
  return notFormatted(language, by, " and configures no formatter for it", id);
}

/**
 * A file's reason for not being formatted where the repository keeps `language`'s style with `by` (`clause` says how
 * it does), and the table of poly.toml that formats it with `id` all the same.
 */
function notFormatted(language: Language, by: string, clause: string, id: string, name = id): string {
  return `not formatted: the repository keeps its ${languageName(language)} style with ${by}${clause}; ` +
    `[fmt.${language}.${id}] in poly.toml formats it with ${name}`;
}

/** poly's formatters of each language a tool poly does not run can keep (lib/config/native/kept_style.ts). */
const KEPT_BY_OTHERS: Readonly<Partial<Record<Language, readonly string[]>>> = {
  python: ["ruff", "black"],
  java: ["clang-format"],
  protobuf: ["clang-format"],
  markdown: ["dprint", "prettier", "oxfmt"],
  html: ["webfmt", "prettier", "oxfmt"],
  sql: ["sqlfmt"],
  toml: ["dprint", "oxfmt"],
  yaml: ["prettier", "oxfmt"],
};

/**
 * Why `spec` does not format `language` where the repository keeps that style with a tool poly does not run, beside
 * the formatter's own configuration or not: PHP kept by PHP-CS-Fixer, Laravel Pint, PHP_CodeSniffer or Easy Coding
 * Standard (lib/config/native/mago.ts); Python by yapf or pyink, SQL by SQLFluff, TOML by taplo, YAML by yamlfmt,
 * Java by a build's formatter plugin (Spotless, ...: lib/config/native/kept_style.ts). poly's formatter would rewrite code the project keeps on purpose (Nadybot's
 * `.php-cs-fixer.php`: all 1,242 of its PHP files; Aiven-Open/pghoard's `.style.yapf`: 63 of its 69 Python files).
 * Naming the formatter's table in poly.toml (`[fmt.php.mago]`, `[fmt.python.ruff]`) formats it all the same;
 * `[tools.<id>] native_config = false` as where no such tool governs.
 */
function styleKept(spec: EngineSpec, language: Language, config: ResolvedConfig): string | undefined {
  const kept = spec.id === "mago"
    ? config.native?.mago?.keptBy
    : KEPT_BY_OTHERS[language]?.includes(spec.id) && readsNative(config, spec.id)
    ? config.native?.[KEPT_STYLE]?.options[language] as string | undefined
    : undefined;
  if (!kept) return undefined;
  return notFormatted(language, kept, ", which poly does not run", spec.id, spec.id === "mago" ? "Mago" : spec.id);
}

/**
 * Why clang-format does not format Java where nothing of the repository's configures it for Java: no `.clang-format`
 * with a `Language: Java` document (nor a pre-commit hook of clang-format taking the file: its own reason; a build's
 * formatter or Checkstyle is {@link styleKept}'s). clang-format's styles are C++ styles, which no Java convention
 * follows (short methods joined onto one line, imports sorted into one block, string literals split), and Java has no
 * formatter its projects run without a configuration, as Python has ruff's and JavaScript biome's defaults: at poly's
 * defaults clang-format rewrote 78 of google/google-java-format's 84 source files, which google-java-format passes (69
 * under its `Google` style at 100 columns). A `.clang-format` without a document for Java is a C, C++ or Objective-C
 * style beside Java it does not format: wix/react-native-navigation's keeps 560 of its 580 Objective-C files as
 * written and 16 of its 257 Java files, and software-mansion's React Native libraries run clang-format on `*.h`,
 * `*.m`, `*.mm` and `*.cpp` alone. `[fmt.java.clang-format]` or `[tools.clang-format]` in poly.toml formats it all the
 * same.
 */
function unconfiguredJava(spec: EngineSpec, language: Language, config: ResolvedConfig): string | undefined {
  if (spec.id !== "clang-format" || language !== "java") return undefined;
  // poly.toml's `[tools.clang-format]` (its `native_config = false` included) steers clang-format as a file would.
  if (config.data.tools[spec.id] !== undefined) return undefined;
  const native = readsNative(config, spec.id) ? config.native?.[spec.id] : undefined;
  const styles = native?.options.styles as Table[] | undefined;
  if (styles?.some((doc) => doc.Language === "Java")) return undefined;
  const file = styles ? native?.files[0]?.path : undefined;
  const of = file ? ` (${basename(file)} has no document for Java)` : " (a .clang-format, a build's formatter plugin)";
  return `not formatted: nothing in the repository configures a Java formatter${of}, and clang-format's styles are ` +
    "no Java convention; [fmt.java.clang-format] in poly.toml formats it with clang-format";
}

/**
 * Why `spec` does not make the changes it would make to `language` where the repository formats it with a release of
 * it whose layout poly's does not keep (`otherRelease`; {@link EnginePlan.releaseDiffers}): another prettier than
 * poly's under a prettier file, or another oxfmt under an oxfmt file (the release installed in a `node_modules`, a
 * `package.json`'s range or the release its lockfile resolves it to, a hook's; vitejs/vite's locked oxfmt 0.63.0
 * keeps the 15 files poly's 0.78.0 would change;
 * lib/config/native/biome.ts: 17 of honojs/hono's files laid out otherwise than by the 3.7.4 it pins, 12 of
 * wix/react-native-navigation's 285 under prettier 2.8.8, all 12 of twbs/rfs's expected CSS files), a ruff of another
 * year's style guide, a `ruff-format` hook's or the one a lockfile or requirement installs (lib/config/native/mod.ts;
 * 2026 parenthesizes a lambda's body, not the whole lambda: MTES-MCT/envergo, 1 of 808 files formatted by ruff 0.14
 * that ruff 0.16 lays out otherwise; EBI-Metagenomics/holofood-database, 1 of 86), a clang-format hook's other LLVM major
 * (loco-3d/crocoddyl's 20.1.7: 17 of its 325 C++ files laid out otherwise by 23). poly's formatter would call files
 * unformatted that the repository's own passes, and its `--fix` and the hook would undo each other's work; a file it
 * leaves as it is, the other release wrote and left alike. `[fmt.<lang>.<id>]` formats them with poly's all the same.
 */
function otherRelease(spec: EngineSpec, language: Language, config: ResolvedConfig): string | undefined {
  // prettier's and oxfmt's release is their file's (the style governing the directory; the release of the tool whose
  // file it is), the others' their own configuration's.
  const style = spec.id === "prettier" || spec.id === "oxfmt";
  const native = style ? prettierStyle(config) : readsNative(config, spec.id) ? config.native?.[spec.id] : undefined;
  // dprint's plugins each have their release: the one formatting `language`.
  const release = spec.id === "dprint" ? native?.otherReleases?.[pluginOf(language) ?? ""] : native?.otherRelease;
  if (!release || (style && release.tool !== spec.id)) return undefined;
  return notFormatted(language, `${release.tool} ${release.spec} (${release.from})`, `, ${release.clause}`, spec.id);
}

/**
 * Whether `spec` formats `language` without being asked: prettier formats YAML so, and the other languages it can
 * format only where a prettier or oxfmt file governs them ({@link styleFormatter}) or poly.toml names it; oxfmt only
 * so.
 */
function byDefault(spec: EngineSpec, language: Language): boolean {
  if (spec.id === "dprint") return language !== "javascript" && language !== "typescript" && language !== "json";
  if (spec.id === "biome") return !BIOME_MARKUP.has(language);
  return spec.id === "prettier" ? language === "yaml" : spec.id !== "oxfmt" && spec.id !== "black";
}

/**
 * Whether the repository's `dprint.json` governs `language` (lib/config/native/dprint.ts): it lists the plugin of
 * `language` that poly runs too. One poly cannot honour governs the languages poly's dprint formats by default (TOML,
 * Markdown, Dockerfile: their files are errored records saying why); JavaScript, TypeScript and JSON stay biome's.
 */
function dprintGoverns(config: ResolvedConfig, language: Language): boolean {
  const own = config.native?.dprint;
  if (!own || !readsNative(config, "dprint")) return false;
  if (own.unhonoured) return language === "toml" || language === "markdown" || language === "dockerfile";
  const plugin = pluginOf(language);
  return plugin !== undefined && plugin in (own.options as unknown as DprintOptions).plugins;
}

/** dprint where the repository's `dprint.json` lists the plugin that formats `language`. */
function dprintFormatter(candidates: EngineSpec[], language: Language, config: ResolvedConfig): EngineSpec | undefined {
  return dprintGoverns(config, language) ? candidates.find((e) => e.id === "dprint") : undefined;
}

/**
 * black where the repository formats its Python with black (a `[tool.black]` table governs: lib/config/native/black.ts)
 * and does not configure ruff's formatter (a `format` table in the ruff configuration governing the file), as its own
 * command line would: black itself, from PATH.
 */
function blackFormatter(candidates: EngineSpec[], language: Language, config: ResolvedConfig): EngineSpec | undefined {
  if (language !== "python" || !config.native?.black) return undefined;
  const ruff = config.native.ruff;
  if (ruff && ruff.files.length > 0 && !ruff.unhonoured && ruff.options.format !== undefined) return undefined;
  // ruff's `ruff-format` hook formats where black's own does not (a `[tool.black]` table is then a leftover).
  if (ruff?.hook && !config.native.black.hook) return undefined;
  return candidates.find((e) => e.id === "black");
}

/**
 * dprint where a `deno.json` governs `language` (JavaScript, TypeScript, JSON, Markdown; dprint's native files read):
 * `deno fmt` formats them with dprint's plugins, as poly then does. biome keeps the languages it formats where a biome
 * file of its own governs it.
 */
function denoFormatter(candidates: EngineSpec[], language: Language, config: ResolvedConfig): EngineSpec | undefined {
  if (!DENO_LANGUAGES.has(language) || !config.native?.[DENO_FMT] || !readsNative(config, "dprint")) return undefined;
  if (biomeKeeps(language, config)) return undefined;
  return candidates.find((e) => e.id === "dprint");
}

/**
 * Why a file of `language` is not formatted where the repository's formatter leaves it to what poly does not run, or
 * undefined: a prettier plugin that formats that language (its files are the plugin's); Svelte and Astro, which prettier
 * formats only through such a plugin and otherwise passes over; or oxfmt for Svelte and Astro (which it formats only
 * with its `svelte` / `astro` option on, through packages poly does not ship, and otherwise leaves as they are).
 */
function pluginFormats(language: Language, config: ResolvedConfig): string | undefined {
  const own = config.native?.dprint;
  const foreign = own && !own.unhonoured && readsNative(config, "dprint")
    ? (own.options as unknown as DprintOptions).foreign[language]
    : undefined;
  if (foreign && !dprintGoverns(config, language)) {
    const file = own!.files.at(-1)?.path ?? "dprint.json";
    return `formatted by the dprint plugin "${foreign}" (listed in ${
      file.slice(file.lastIndexOf("/") + 1)
    }), which poly does not run: not checked`;
  }
  const style = prettierStyle(config);
  if (!style) return undefined;
  const file = style.files[0]?.path ?? `${style.style?.tool ?? "prettier"}'s configuration`;
  const name = file.slice(file.lastIndexOf("/") + 1);
  if (style.style?.tool === "oxfmt") {
    if (language !== "svelte" && language !== "astro") return undefined;
    const overrides = (style.options.overrides ?? []) as { options?: Record<string, unknown> }[];
    const on = [style.options, ...overrides.map((o) => o.options ?? {})].some((o) => o[language]);
    return on
      ? `formatted by oxfmt through its "${language}" option (in ${name}), with a package poly does not ship: not checked`
      : `left as it is by oxfmt, this repository's formatter (no "${language}" option in ${name}): not checked`;
  }
  const plugin = stylePlugins(style.options).plugins.find((p) => LANGUAGE_PLUGINS[p]?.includes(language));
  if (plugin) {
    return `formatted by the prettier plugin "${plugin}" (listed in ${name}), which poly does not run: not checked`;
  }
  // prettier's command line passes over a file of a language none of its plugins formats.
  if (language === "svelte" || language === "astro") {
    return `left as it is by prettier, this repository's formatter (no plugin for ${
      languageName(language)
    } in ${name}): not checked`;
  }
  return undefined;
}

/** Whether engine `id` reads its native configuration files (`[tools.<id>] native_config` is not false). */
function readsNative(config: ResolvedConfig, id: string): boolean {
  return (config.data.tools[id] as { native_config?: boolean } | undefined)?.native_config !== false;
}

/**
 * The prettier or oxfmt configuration governing `config`'s directory where its tool reads it (`[tools.prettier]` or
 * `[tools.oxfmt]` `native_config` not false), or undefined.
 */
function prettierStyle(config: ResolvedConfig): NativeEngineConfig | undefined {
  const style = config.native?.[FORMAT_STYLE];
  return style && readsNative(config, style.style?.tool ?? "prettier") ? style : undefined;
}

/** The languages biome formats: under a biome file of its own, biome keeps them. */
const BIOME_FORMATS: ReadonlySet<Language> = new Set(["javascript", "typescript", "json", "css", "graphql"]);

/**
 * Whether a biome file of biome's own governs `config`'s directory and biome formats `language` under it: biome keeps
 * it (not where that file turns biome's formatter off for it: another formatter's file then governs).
 */
function biomeKeeps(language: Language, config: ResolvedConfig): boolean {
  return biomeOwn(config) && (BIOME_FORMATS.has(language) || BIOME_MARKUP.has(language) && biomeMarkup(config)) &&
    !biomeFormatterOff(language, config);
}

/** The markup languages biome formats only where its file turns its HTML formatter on. */
const BIOME_MARKUP: ReadonlySet<Language> = new Set(["html", "vue", "svelte", "astro"]);

/** Whether biome's own configuration governing `config`'s directory turns its HTML formatter on (off by default). */
function biomeMarkup(config: ResolvedConfig): boolean {
  return tableOf(tableOf(config.native?.biome?.options.html).formatter).enabled === true;
}

/**
 * biome where its own file turns its HTML formatter on (`html.formatter.enabled`): it formats HTML files, and Vue,
 * Svelte and Astro files — their scripts and styles, or whole under `html.experimentalFullSupportEnabled` — as
 * `biome format` does there, in web_fmt's (or a prettier file's) place.
 */
function biomeMarkupFormatter(
  candidates: EngineSpec[],
  language: Language,
  config: ResolvedConfig,
): EngineSpec | undefined {
  if (!BIOME_MARKUP.has(language) || !readsNative(config, "biome") || !biomeKeeps(language, config)) return undefined;
  return candidates.find((e) => e.id === "biome");
}

/** The section of a biome configuration that holds `language`'s formatter (TypeScript is JavaScript's). */
const BIOME_SECTIONS: Partial<Record<Language, string>> = {
  javascript: "javascript",
  typescript: "javascript",
  json: "json",
  css: "css",
  graphql: "graphql",
  html: "html",
  vue: "html",
  svelte: "html",
  astro: "html",
};

/**
 * Why biome does not format `language` where biome's own configuration (its file, or its pre-commit hook) turns its
 * formatter off — `formatter.enabled: false`, or the language's (`css.formatter.enabled: false`) — as `biome format`
 * then leaves those files as they are (a repository that lints with biome and formats otherwise, or not at all).
 * `[fmt.<lang>.biome]` formats them all the same. Undefined where biome formats it.
 */
function biomeFormatterOff(language: Language, config: ResolvedConfig): string | undefined {
  const biome = config.native?.biome;
  if (!biome || biome.style || biome.unhonoured || !readsNative(config, "biome")) return undefined;
  const section = BIOME_SECTIONS[language];
  const off = (table: unknown) => tableOf(tableOf(table).formatter).enabled === false;
  const key = off(biome.options)
    ? "formatter.enabled"
    : section && off(biome.options[section])
    ? `${section}.formatter.enabled`
    : undefined;
  if (!key) return undefined;
  // The biome file itself (a `.editorconfig` biome reads comes after it among the configuration's files).
  const file = biome.files.findLast((f) => basename(f.path) !== ".editorconfig")?.path;
  const where = file ? basename(file) : `its "${biome.hook}" hook in ${PRE_COMMIT_FILE}`;
  return `not formatted: biome's formatter is off for ${languageName(language)} (${key} = false in ${where}); ` +
    `[fmt.${language}.biome] in poly.toml formats it with biome`;
}

/**
 * The repository's formatter where its prettier or oxfmt file governs `language` (its file read, the tool not
 * turned off): prettier itself, or oxfmt itself (prettier under oxfmt's options where oxfmt is disabled), as its own
 * command line would format the file. biome keeps the languages it formats where a biome file of its own governs it.
 */
function styleFormatter(candidates: EngineSpec[], language: Language, config: ResolvedConfig): EngineSpec | undefined {
  const style = prettierStyle(config);
  if (!style || biomeKeeps(language, config)) return undefined;
  const oxfmt = style.style?.tool === "oxfmt" ? candidates.find((e) => e.id === "oxfmt") : undefined;
  return oxfmt ?? candidates.find((e) => e.id === "prettier");
}

/** Plans narrowed for one file, by the plan they narrow and the engines they drop. */
const narrowed = new WeakMap<FilePlan, Map<string, FilePlan>>();

/**
 * `plan` without the engines whose own configuration keeps `path` from them
 * (ruff's `exclude`, biome's `includes`: see lib/config/native/). When no engine
 * of the file's own is left, `noEngine` says why, in the engines' words. Where
 * ruff's `per-file-target-version` names the file, ruff's settings take that
 * `target-version` (for linting and formatting, as ruff does).
 * `resident`: remember the result by path, for the next runs of this process.
 */
export function narrowToFile(plan: FilePlan, path: string, kind: "lint" | "fmt", resident = false): FilePlan {
  if (!resident || !plan.engines.some((e) => e.settings.native || e.settings.hooks)) {
    return narrowOnce(plan, path, kind);
  }
  // A resident process (`poly daemon`, `poly mcp`) plans every file again for each request, under the same plan
  // objects while the configuration holds: each file's globs are matched once (astro: ~45 ms a request).
  let paths = byPath[kind].get(plan);
  if (!paths) byPath[kind].set(plan, paths = new Map());
  let found = paths.get(path);
  if (!found) paths.set(path, found = narrowOnce(plan, path, kind));
  return found;
}

/** {@link narrowToFile}'s results by plan and path. */
const byPath = {
  lint: new WeakMap<FilePlan, Map<string, FilePlan>>(),
  fmt: new WeakMap<FilePlan, Map<string, FilePlan>>(),
};

function narrowOnce(plan: FilePlan, path: string, kind: "lint" | "fmt"): FilePlan {
  let dropped: string[] | undefined;
  let reasons: string[] | undefined;
  let retargeted: [id: string, version: string][] | undefined;
  for (const e of plan.engines) {
    const native = e.settings.native;
    const hooks = e.settings.hooks;
    if (!native && !hooks) continue;
    const why = (native && nativeExcluded(e.id, kind, native, path)) ?? (hooks && hooksKeep(e.id, hooks, path));
    if (why) {
      (dropped ??= []).push(e.id);
      (reasons ??= []).push(why);
      continue;
    }
    const version = native?.perFileTarget ? nativeTargetVersion(native, path) : undefined;
    if (version !== undefined && version !== native!.options["target-version"]) {
      (retargeted ??= []).push([e.id, version]);
    }
  }
  if (!dropped && !retargeted) return plan;
  let own = narrowed.get(plan);
  if (!own) narrowed.set(plan, own = new Map());
  const key = JSON.stringify([dropped, reasons, retargeted]);
  let found = own.get(key);
  if (!found) {
    const versions = new Map(retargeted);
    const engines = plan.engines.filter((e) => !dropped?.includes(e.id)).map((e) => {
      const version = versions.get(e.id);
      return version === undefined ? e : { ...e, settings: withTargetVersion(e.settings, version) };
    });
    const mine = engines.filter((e) => !engineById(e.id)?.crossCutting);
    found = mine.length > 0 || !reasons ? { ...plan, engines } : { engines, noEngine: reasons.join("; ") };
    own.set(key, found);
  }
  return found;
}

/** Settings under ruff's `per-file-target-version`, one object per (settings, version). */
const retargets = new WeakMap<EngineSettings, Map<string, EngineSettings>>();

/** `settings` with its native options' `target-version` set to `version`. */
function withTargetVersion(settings: EngineSettings, version: string): EngineSettings {
  let own = retargets.get(settings);
  if (!own) retargets.set(settings, own = new Map());
  let found = own.get(version);
  if (!found) {
    const native = settings.native!;
    found = { ...settings, native: { ...native, options: { ...native.options, "target-version": version } } };
    own.set(version, found);
  }
  return found;
}

/**
 * Formatters with a configuration of their own, or none at all (gofmt's output is Go's one format, which `gofmt -l`
 * holds every file to, whatever an `.editorconfig` says of line endings or a final newline): `.editorconfig` does not
 * apply to them. (biome formats under `.editorconfig` where no file of its own governs it: where one does, below.)
 */
const OWN_CONFIG = new Set(["ruff", "rustfmt", "gofmt"]);

/** How each formatter is told to indent with tabs (`indent_style = tab`); "n/a" where indentation has no style. */
function tabKeys(id: string, language: Language): Record<string, unknown> | "n/a" | undefined {
  switch (id) {
    case "clang-format":
      return { UseTab: "ForIndentation" };
    case "sqlfmt":
      return { indent_style: "tab" };
    case "webfmt":
    case "biome":
      return { indentStyle: "tab" };
    case "mago":
      return { "use-tabs": true };
    case "dprint":
      return language === "toml" ? { useTabs: true } : "n/a"; // Markdown, Dockerfile: no indentation setting
    case "prettier":
      return language === "yaml" ? "n/a" : undefined; // YAML forbids tabs for indentation
    case "oxfmt":
      return language === "yaml" ? "n/a" : { useTabs: true };
    default:
      return undefined;
  }
}

/** Settings with a file's `.editorconfig` applied, one object per (settings, properties). */
const withEc = new WeakMap<EngineSettings, Map<string, EngineSettings>>();
const ecPlans = new WeakMap<FilePlan, Map<string, FilePlan>>();

/** The settings `make` derives from `base` for `key`, made once per (settings, key). */
function derived(base: EngineSettings, key: string, make: () => EngineSettings): EngineSettings {
  let own = withEc.get(base);
  if (!own) withEc.set(base, own = new Map());
  let settings = own.get(key);
  if (!settings) own.set(key, settings = make());
  return settings;
}

/**
 * `plan` (a format plan) with the file's `.editorconfig` properties applied to
 * its formatter's `[defaults]` (see lib/config/native/editorconfig.ts), unless
 * the formatter has a configuration of its own (or a native file, a `.clang-format`, governs it) or `[tools.<engine>]
 * native_config = false`. Throws a ConfigError for a property the formatter
 * cannot honour.
 */
export function withEditorconfig(plan: FilePlan, config: ResolvedConfig, path: string, language: Language): FilePlan {
  const ec = config.native?.editorconfig;
  const engine = plan.engines[0];
  if (ec && engine?.settings.native?.style) return withStyleEditorconfig(plan, ec, path);
  if (!ec || !engine || OWN_CONFIG.has(engine.id)) return plan;
  if (governingNative(engine.settings) && !engine.settings.native?.readsEditorconfig) return plan;
  if (!readsNative(config, engine.id)) return plan;
  if (engine.id === "shfmt") return withShfmtEditorconfig(plan, ec, path);
  if (engine.id === "luafmt") return withStyluaEditorconfig(plan, ec, path);
  const props = editorconfigProps(ec, path);
  if (Object.keys(props).length === 0) return plan;
  const d = editorconfigDefaults(props);
  let tool: Record<string, unknown> = {};
  if (d.tabs) {
    const keys = tabKeys(engine.id, language);
    if (keys === undefined) {
      throw new ConfigError(
        { file: d.tabs },
        `indent_style = tab cannot be honoured by the "${engine.id}" formatter (for "${path}"): set [tools.${engine.id}] native_config = false, or indent_style = space for those files`,
      );
    }
    if (keys !== "n/a") tool = keys;
  }
  const { tabs: _tabs, ...defaults } = d;
  const key = JSON.stringify([defaults, tool]);
  if (key === "[{},{}]") return plan;
  const settings = derived(engine.settings, key, () => ({
    ...engine.settings,
    defaults: { ...engine.settings.defaults, ...defaults },
    tool: { ...tool, ...engine.settings.tool },
  }));
  return planWith(plan, key, settings);
}

/**
 * `plan` (shfmt's) under the file's `.editorconfig` as shfmt reads it (lib/config/native/editorconfig.ts): its
 * `ignore = true` drops shfmt, saying so; its properties become shfmt's keys beneath poly.toml's (both readings of
 * the `[[bash]]` sections, the engine taking the one for the dialect it reads the file in: `editorconfig`);
 * `keep_padding = true`, which the WebAssembly build cannot do, is an unhonoured configuration for the file.
 */
function withShfmtEditorconfig(plan: FilePlan, ec: NativeEngineConfig, path: string): FilePlan {
  const engine = plan.engines[0];
  const ignoredBy = shfmtIgnoredBy(ec, path);
  if (ignoredBy) {
    const reason = `ignored by shfmt: ignore = true in "${ignoredBy}"`;
    let plans = ecPlans.get(plan);
    if (!plans) ecPlans.set(plan, plans = new Map());
    let found = plans.get(reason);
    if (!found) {
      const engines = plan.engines.slice(1);
      found = engines.some((e) => !engineById(e.id)?.crossCutting)
        ? { ...plan, engines }
        : { engines, noEngine: reason };
      plans.set(reason, found);
    }
    return found;
  }
  const shell = shfmtEditorconfig(ec, path, ["shell"]);
  const bash = shfmtEditorconfig(ec, path, ["shell", "bash"]);
  const keepPadding = shell.keepPadding ?? bash.keepPadding;
  const key = JSON.stringify([shell.tool, bash.tool, keepPadding]);
  if (key === "[{},{},null]") return plan;
  const settings = derived(engine.settings, key, () => ({
    ...engine.settings,
    tool: { ...engine.settings.tool, editorconfig: { shell: shell.tool, bash: bash.tool } },
    ...(keepPadding
      ? {
        native: {
          files: [],
          options: {},
          root: dirname(path),
          unhonoured:
            `${keepPadding}: keep_padding = true cannot be honoured by poly's shfmt (its WebAssembly build has no such option): remove it, or set [tools.shfmt] native_config = false`,
        },
      }
      : {}),
  }));
  return planWith(plan, key, settings);
}

/**
 * `plan` (StyLua's, where no `stylua.toml` governs) under the file's `.editorconfig` as StyLua reads it
 * (`styluaEditorconfig`): its options beneath poly.toml's `[fmt.lua.luafmt]` keys, its line ending over `[defaults]`;
 * a `stylua_syntax` poly's build cannot parse is an unhonoured configuration for the file.
 */
function withStyluaEditorconfig(plan: FilePlan, ec: NativeEngineConfig, path: string): FilePlan {
  const engine = plan.engines[0];
  const props = editorconfigProps(ec, path);
  if (Object.keys(props).length === 0) return plan;
  const { tool, unhonoured } = styluaEditorconfig(props);
  const key = JSON.stringify([tool, unhonoured ?? null]);
  if (key === "[{},null]") return plan;
  const eol = tool.line_ending as "lf" | "crlf" | undefined;
  const settings = derived(engine.settings, key, () => ({
    ...engine.settings,
    defaults: { ...engine.settings.defaults, ...(eol ? { line_ending: eol } : {}) },
    tool: { ...tool, ...engine.settings.tool },
    ...(unhonoured ? { native: { files: [], options: {}, root: dirname(path), unhonoured } } : {}),
  }));
  return planWith(plan, key, settings);
}

/** `plan` with its formatter's settings replaced by `settings` (one plan object per (plan, key)). */
function planWith(plan: FilePlan, key: string, settings: EngineSettings): FilePlan {
  let plans = ecPlans.get(plan);
  if (!plans) ecPlans.set(plan, plans = new Map());
  let found = plans.get(key);
  if (!found) {
    found = { ...plan, engines: [{ ...plan.engines[0], settings }, ...plan.engines.slice(1)] };
    plans.set(key, found);
  }
  return found;
}

/**
 * `plan` with the file's `.editorconfig` read beneath the prettier-compatible options (prettier's, oxfmt's) that
 * govern its formatter (biome, mapped; prettier, web_fmt and dprint, as written), as that tool reads it: the properties become
 * the options the tool's file does not set at its top level, laid over its own top level (its `overrides` still win).
 */
function withStyleEditorconfig(plan: FilePlan, ec: NativeEngineConfig, path: string): FilePlan {
  const engine = plan.engines[0];
  const native = engine.settings.native!;
  const { tool, explicit } = native.style!;
  const props = editorconfigProps(ec, path);
  const style = editorconfigStyle(props, tool, explicit);
  if (Object.keys(style).length === 0) return plan;
  // biome takes them mapped onto its options; prettier (YAML) as they are.
  const extra = engine.id === "biome"
    ? editorconfigToBiome(style, Object.values(props)[0]?.file ?? ".editorconfig", tool)
    : style;
  const key = JSON.stringify(extra);
  const settings = derived(engine.settings, key, () => {
    const options = mergeTables(native.options, extra);
    // Properties that say what the mapped options already do change nothing: the same settings object.
    return JSON.stringify(options) === JSON.stringify(native.options)
      ? engine.settings
      : { ...engine.settings, native: { ...native, options } };
  });
  return settings === engine.settings ? plan : planWith(plan, key, settings);
}
