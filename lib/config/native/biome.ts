/**
 * biome's own configuration, found as `biome` 2.5 finds it:
 *
 * - the nearest `biome.json` / `biome.jsonc` above a directory (`biome.json`
 *   first) up to the repository root; a nested file says `"root": false` and is
 *   independent unless it `"extends": "//"` (the root configuration: the nearest
 *   file above it that is not `"root": false`);
 * - `extends`: paths relative to the file (and `"//"`), applied first, the
 *   extending file's keys winning field by field (objects merge, arrays replace);
 * - `files.includes`, `linter.includes` and `formatter.includes` are evaluated by
 *   poly (a file they leave out is kept from biome, with that reason); the rest,
 *   `overrides` included, is applied through biome's own configuration API
 *   (`applyConfiguration`) with file paths relative to the governing file's
 *   directory, so biome's semantics apply;
 * - without a biome file, oxfmt's or prettier's options (`.oxfmtrc.json` /
 *   `.oxfmtrc.jsonc`, `.prettierrc*`, `package.json`'s `prettier`: the nearest
 *   directory holding one, oxfmt's first there) are mapped onto biome's
 *   formatter (see `prettier.ts`), with the `.editorconfig` both tools read
 *   beneath them (lib/run/plan.ts) and oxfmt's `ignorePatterns`;
 * - `plugins` (GritQL files) and extends of packages are {@link ConfigError}s:
 *   poly cannot honour them; so is turning on the `project` domain or a rule
 *   that needs biome's scanner over the whole project ({@link projectRuleKey}:
 *   imports or types across files);
 * - the nearest `package.json` ({@link BiomeReader.manifestFor}) is biome's
 *   "manifest": its dependencies turn on the recommended rules of biome's domains
 *   (react, next, test, ...) and its `"type": "commonjs"` makes `.js` files scripts.
 *   Its fields biome reads travel in the settings (hence the cache key), and the
 *   file is listed among the configs.
 *
 * @module
 */
import { basename, dirname, join, relative, sep } from "node:path";
import picomatch from "picomatch";
import { ConfigError } from "../../errors/mod.ts";
import type { NativeFiles, NativeText } from "./_files.ts";
import { keyPosition, parseJsonc } from "./_jsonc.ts";
import { parseError, unhonouredConfig } from "./_reading.ts";
import { relativeInside } from "../../paths/inside.ts";
import { unknownBiomeKey } from "./_biome_keys.ts";
import {
  anotherRelease,
  declaredRelease,
  devDependsOnPrettier,
  exactRelease,
  OXFMT_FILES,
  OXFMT_RELEASE,
  oxfmtIgnores,
  oxfmtOptions,
  PRETTIER_FILES,
  PRETTIER_RELEASE,
  prettierOptions,
  styleToBiomeOf,
} from "./prettier.ts";
import type { NativeEngineConfig, NativePattern, NativeSource } from "./types.ts";
import { isTable, mergeTables, type Table } from "../table.ts";
import { parseEditorconfig } from "./editorconfig.ts";
import { PRE_COMMIT_FILE, readPreCommit } from "./pre_commit.ts";
import { JS_LOCKFILES, lockedVersion } from "./_js_lock.ts";

/** The `version` of an installed package's `package.json` text, or undefined. */
function installedVersion(text: string): string | undefined {
  try {
    const version = (JSON.parse(text) as Table).version;
    return typeof version === "string" && /^\d+\.\d+\.\d+/.test(version) ? version : undefined;
  } catch {
    return undefined;
  }
}

/** The biome version whose configuration schema (shipped with `@biomejs/biome`) poly checks files against. */
const BIOME_SCHEMA_VERSION = "2.5.14";

/** biome's file names in one directory, in its order. */
export const BIOME_FILES = ["biome.json", "biome.jsonc"] as const;

/**
 * The fields of a `package.json` biome's analyzer reads: domains by dependency, `type` for `.js` files, `name` for a
 * package importing itself (`noUndeclaredDependencies`), the optional and bundled dependencies (`noNodejsModules`).
 */
const MANIFEST_KEYS = [
  "name",
  "type",
  "dependencies",
  "devDependencies",
  "peerDependencies",
  "optionalDependencies",
  "bundleDependencies",
  "bundledDependencies",
] as const;

/**
 * biome's rules that need its scanner to have indexed the whole project: those that resolve imports or classes across
 * files (its `project` domain) and those that infer types through the module graph (its `types` domain). biome applies
 * them only where the project is indexed (`biome lint` run there), which poly's biome — a file's text in the
 * WebAssembly build, or a private folder of links for the command line — never has: they would report nothing, as if
 * clean (checked with biome 2.5: `noUnresolvedImports`, `useImportExtensions`, `noFloatingPromises`).
 */
export const PROJECT_RULES = [
  // project
  "noUnresolvedImports",
  "useImportExtensions",
  "noImportCycles",
  "noPrivateImports",
  "noDeprecatedImports",
  "useJsonImportAttributes",
  "noUndeclaredClasses",
  "noUnusedClasses",
  "noUndeclaredCustomProperties",
  // types
  "noBaseToString",
  "noFloatingPromises",
  "noMisleadingReturnType",
  "noMisusedPromises",
  "noUnnecessaryConditions",
  "noUnsafePlusOperands",
  "noUselessTypeConversion",
  "useArrayFind",
  "useArraySortCompare",
  "useAwaitThenable",
  "useConsistentEnumValueType",
  "useDisposables",
  "useExhaustiveSwitchCases",
  "useIncludes",
  "useNullishCoalescing",
  "useRegexpExec",
  "useStringStartsEndsWith",
] as const;

/** Why a configuration turning on the project domain or one of its rules is refused, and what to do. */
export const PROJECT_REASON = "biome applies it only where its scanner has indexed the whole project (`biome lint` " +
  "run there: it resolves imports, or infers types, across files), and poly's biome never has, so it would report " +
  "nothing; turn it off";

/**
 * The first key `find` names in `config` itself (`at` is "") or else in one of its overrides (`at` is
 * `overrides[<i>].`): what poly refuses in a configuration it refuses in each override too.
 */
function keyInConfigOrOverrides(
  config: Table,
  find: (table: Table, at: string) => string | undefined,
): string | undefined {
  const overrides = Array.isArray(config.overrides) ? config.overrides : [];
  return find(config, "") ??
    overrides.map((o, i) => isTable(o) ? find(o, `overrides[${i}].`) : undefined).find(Boolean);
}

/** The key of `config` (or of one of its overrides) that turns on the project domain or a rule of {@link PROJECT_RULES}. */
export function projectRuleKey(config: Table): string | undefined {
  return keyInConfigOrOverrides(config, ({ linter }, at) => {
    if (!isTable(linter)) return undefined;
    const domains = linter.domains;
    if (isTable(domains) && domains.project !== undefined && domains.project !== "none") {
      return `${at}linter.domains.project`;
    }
    if (!isTable(linter.rules)) return undefined;
    for (const [group, rules] of Object.entries(linter.rules)) {
      if (!isTable(rules)) continue;
      for (const name of PROJECT_RULES) {
        const setting = rules[name];
        const level = isTable(setting) ? setting.level : setting;
        if (setting !== undefined && level !== "off") return `${at}linter.rules.${group}.${name}`;
      }
    }
    return undefined;
  });
}

/** Why a configuration resolving pnpm catalogs is refused, and what to do. */
export const CATALOG_REASON = "biome then reads the versions of `catalog:` dependencies from `pnpm-workspace.yaml` " +
  "(they turn on the domains they name), which poly's copy of a package's manifest does not carry, so those domains' " +
  "rules would report nothing; turn it off";

/**
 * The key of `config` (or of one of its overrides) poly cannot honour, and why: the project domain or a rule that needs
 * biome's scanner ({@link projectRuleKey}), or `javascript.resolver.experimentalPnpmCatalogs` on.
 */
export function unhonouredKey(config: Table): { key: string; reason: string } | undefined {
  const project = projectRuleKey(config);
  if (project) return { key: project, reason: PROJECT_REASON };
  const catalogs = keyInConfigOrOverrides(
    config,
    ({ javascript }, at) =>
      isTable(javascript) && isTable(javascript.resolver) && javascript.resolver.experimentalPnpmCatalogs === true
        ? `${at}javascript.resolver.experimentalPnpmCatalogs`
        : undefined,
  );
  return catalogs ? { key: catalogs, reason: CATALOG_REASON } : undefined;
}

/** The message for a key {@link unhonouredKey} found, wherever the configuration came from. */
export function unhonouredText(unhonoured: { key: string; reason: string }): string {
  return `biome key "${unhonoured.key}" cannot be honoured by poly: ${unhonoured.reason}`;
}

interface Parsed {
  file: NativeText;
  doc: Table;
}

/** The reader of biome's (and prettier's) configuration for a run. */
export class BiomeReader {
  readonly #nearest = new Map<string, Promise<string | undefined>>();
  readonly #prettier = new Map<string, Promise<string | undefined>>();
  readonly #dependents = new Map<string, Promise<string | undefined>>();
  readonly #styles = new Map<string, Promise<NativeEngineConfig | undefined>>();
  readonly #mapped = new Map<string, Promise<NativeEngineConfig | undefined>>();
  readonly #resolved = new Map<string, Promise<NativeEngineConfig | undefined>>();
  readonly #manifests = new Map<string, Promise<NativeEngineConfig | undefined>>();
  readonly #byFile = new Map<string, Promise<NativeEngineConfig>>();

  /**
   * `hookedPrettier`: the repository's `.pre-commit-config.yaml` under `top` where a prettier hook of it formats (no
   * prettier file of its own then: the hook's arguments over prettier's defaults).
   */
  constructor(
    private readonly files: NativeFiles,
    private readonly display: (path: string) => string,
    private readonly hookedPrettier: (top: string) => Promise<string | undefined> = () => Promise.resolve(undefined),
  ) {}

  /** The biome configuration governing `dir`, or undefined (biome's defaults under poly's). */
  forDir(dir: string, top: string): Promise<NativeEngineConfig | undefined> {
    let found = this.#resolved.get(dir);
    if (!found) {
      found = (async () => {
        const path = await this.#nearestBiome(dir, top);
        if (path) return await this.#resolve(path, top);
        const prettier = await this.#nearestPrettier(dir, top);
        return prettier ? await this.#fromPrettier(prettier, top) : undefined;
      })();
      this.#resolved.set(dir, found);
    }
    return found;
  }

  /**
   * The `package.json` biome takes as the manifest of files in `dir`: the nearest
   * one above it up to `top`, outside `node_modules/` (biome's project layout). A
   * file that does not parse as a JSON object is no manifest, as for biome.
   * `options` holds the fields biome reads from it: `name`, `type`,
   * `dependencies`, `devDependencies` and `peerDependencies`.
   */
  manifestFor(dir: string, top: string): Promise<NativeEngineConfig | undefined> {
    let found = this.#manifests.get(dir);
    if (!found) {
      found = (async () => {
        if (dir.split(sep).includes("node_modules")) {
          const up = dirname(dir);
          return dir === top || up === dir ? undefined : await this.manifestFor(up, top);
        }
        if ((await this.files.namesIn(dir)).has("package.json")) {
          const path = join(dir, "package.json");
          const file = await this.files.read(path).catch(() => undefined);
          let doc: unknown;
          try {
            doc = file ? JSON.parse(file.text) : undefined;
          } catch {
            doc = undefined;
          }
          if (file && isTable(doc)) {
            const options: Table = {};
            for (const k of MANIFEST_KEYS) if (doc[k] !== undefined) options[k] = doc[k];
            return { files: [{ path, hash: file.hash }], options, root: dir };
          }
        }
        const up = dirname(dir);
        return dir === top || up === dir ? undefined : await this.manifestFor(up, top);
      })();
      this.#manifests.set(dir, found);
    }
    return found;
  }

  #nearestBiome(dir: string, top: string): Promise<string | undefined> {
    let found = this.#nearest.get(dir);
    if (!found) {
      found = (async () => {
        const names = await this.files.namesIn(dir);
        for (const name of BIOME_FILES) if (names.has(name)) return join(dir, name);
        const up = dirname(dir);
        return dir === top || up === dir ? undefined : await this.#nearestBiome(up, top);
      })();
      this.#nearest.set(dir, found);
    }
    return found;
  }

  /**
   * The prettier-compatible configuration file governing `dir` ({@link #prettierFile}); where there is none up to
   * `top`, the nearest `package.json` that lists prettier among its `devDependencies`: a repository that formats with
   * prettier's defaults (`"format": "prettier --write ."`, no configuration file), which `prettierOptions` reads as
   * prettier's defaults; else the `.pre-commit-config.yaml` whose prettier hook formats (its arguments).
   */
  async #nearestPrettier(dir: string, top: string): Promise<string | undefined> {
    return await this.#prettierFile(dir, top) ?? await this.#prettierDependent(dir, top) ??
      await this.hookedPrettier(top);
  }

  #prettierDependent(dir: string, top: string): Promise<string | undefined> {
    let found = this.#dependents.get(dir);
    if (!found) {
      found = (async () => {
        if ((await this.files.namesIn(dir)).has("package.json")) {
          const file = await this.files.read(join(dir, "package.json")).catch(() => undefined);
          if (file && file.text.includes('"prettier"') && devDependsOnPrettier(file.text)) return file.path;
        }
        const up = dirname(dir);
        return dir === top || up === dir ? undefined : await this.#prettierDependent(up, top);
      })();
      this.#dependents.set(dir, found);
    }
    return found;
  }

  #prettierFile(dir: string, top: string): Promise<string | undefined> {
    let found = this.#prettier.get(dir);
    if (!found) {
      found = (async () => {
        const names = await this.files.namesIn(dir);
        for (const name of OXFMT_FILES) if (names.has(name)) return join(dir, name);
        for (const name of PRETTIER_FILES) {
          if (!names.has(name)) continue;
          const path = join(dir, name);
          if (name !== "package.json") return path;
          const file = await this.files.read(path).catch(() => undefined);
          if (file && /"prettier"\s*:/.test(file.text)) {
            try {
              if ((JSON.parse(file.text) as Table).prettier !== undefined) return path;
            } catch {
              // A package.json that does not parse is not a prettier config.
            }
          }
        }
        const up = dirname(dir);
        return dir === top || up === dir ? undefined : await this.#prettierFile(up, top);
      })();
      this.#prettier.set(dir, found);
    }
    return found;
  }

  /**
   * The prettier-compatible configuration governing `dir` (oxfmt's or prettier's file, nearest first), as the tool
   * reads it: its options as written (`overrides` included), its ignores (oxfmt's `ignorePatterns`, a
   * `.prettierignore` beside the file), and which tool. Independent of any biome file: prettier's and oxfmt's options
   * govern what prettier formats under them, biome's languages included where no biome file governs biome.
   */
  async styleFor(dir: string, top: string): Promise<NativeEngineConfig | undefined> {
    const path = await this.#nearestPrettier(dir, top);
    return path ? await this.#style(path, top) : undefined;
  }

  #style(path: string, top: string): Promise<NativeEngineConfig | undefined> {
    let found = this.#styles.get(path);
    if (!found) {
      found = (async () => {
        const file = await this.files.read(path);
        const display = this.display(path);
        const oxfmt = (OXFMT_FILES as readonly string[]).includes(path.slice(path.lastIndexOf("/") + 1));
        const tool = oxfmt ? "oxfmt" : "prettier";
        /** The shared config package's files the options came from: part of the configuration's files. */
        const used: { path: string; hash: string }[] = [];
        let options: Record<string, unknown> | undefined;
        try {
          options = oxfmt ? await oxfmtOptions(file, display) : await prettierOptions(file, display, async (p) => {
            const shared = await this.files.read(p).catch(() => undefined);
            if (shared) used.push({ path: shared.path, hash: shared.hash });
            return shared;
          });
        } catch (e) {
          // A file poly cannot read (a shared config package, code only running would tell, a syntax error) governs
          // the formatting of its files all the same: formatting them is an error saying why; linting goes on.
          if (!(e instanceof ConfigError)) throw e;
          return {
            files: [{ path, hash: file.hash }],
            options: {},
            root: dirname(path),
            style: { tool, explicit: [] },
            unmapped: e.message,
          } satisfies NativeEngineConfig;
        }
        if (!options) return undefined;
        const root = dirname(path);
        const files = [{ path, hash: file.hash }, ...used];
        const formatIgnore: { file: string; patterns: string[] }[] = [];
        const own = oxfmt ? oxfmtIgnores(options, display) : [];
        if (own.length > 0) formatIgnore.push({ file: path, patterns: own });
        // prettier's command line reads the `.gitignore` there too (its `--ignore-path` default), and matches both
        // files' patterns without regard to case, as the `ignore` package does by default: `Icon*` in a `.gitignore`
        // keeps `icons.html` from prettier, though not from git.
        // (The `.gitignore` is no configuration file of poly's: it is found in the folder's whole listing.)
        const names = await this.files.entryNames(root);
        for (const name of oxfmt ? [".prettierignore"] : [".gitignore", ".prettierignore"]) {
          if (!names?.has(name)) continue;
          const ignoreFile = await this.files.read(join(root, name)).catch(() => undefined);
          if (!ignoreFile) continue; // a folder of that name, or unreadable: nothing prettier reads either
          files.push({ path: ignoreFile.path, hash: ignoreFile.hash });
          const patterns = ignoreFile.text.split(/\r?\n/).filter((l) => l.trim() !== "" && !l.startsWith("#"));
          if (patterns.length > 0) formatIgnore.push({ file: ignoreFile.path, patterns });
        }
        const release = await this.#release(file, top, tool);
        if (release?.sources) files.push(...release.sources);
        // Another prettier (oxfmt) than poly's formats the repository: lib/run/plan.ts gives the reason, as for a
        // hook's ruff.
        const ours = oxfmt ? OXFMT_RELEASE : PRETTIER_RELEASE;
        const clause = `whose output poly's ${tool} ${ours} does not reproduce`;
        const other = release && await anotherRelease(release.spec, ours)
          ? { otherRelease: { tool, spec: release.spec, from: release.from, clause } }
          : {};
        return {
          files,
          options,
          root,
          ...(formatIgnore.length > 0 ? { formatIgnore } : {}),
          style: { tool, explicit: Object.keys(options).filter((k) => k !== "overrides").sort() },
          ...other,
          origins: Object.fromEntries(Object.keys(options).map((k) => [`${tool}.${k}`, display])),
        } satisfies NativeEngineConfig;
      })();
      this.#styles.set(path, found);
    }
    return found;
  }

  /**
   * The prettier (`tool`: or oxfmt) the repository formats with under the configuration `file`, where it names one:
   * the one its pre-commit hook runs (that file's), else, from the file's folder up to `top`, the nearest release
   * installed in a `node_modules` or range a `package.json` declaring it gives (the file itself first where it is
   * one), as the repository's scripts run the release its package installs; a range as the nearest lockfile resolves
   * it, where it says ({@link lockedVersion}: what an install would put in that `node_modules`). `from` says where,
   * for messages; `sources` are the files it came from that are not the configuration (its files then).
   */
  async #release(
    file: NativeText,
    top: string,
    tool: "prettier" | "oxfmt",
  ): Promise<{ spec: string; from: string; sources?: NativeSource[] } | undefined> {
    const display = this.display(file.path);
    if (basename(file.path) === PRE_COMMIT_FILE) {
      const hook = (await readPreCommit(file.text, display)).hooks.find((h) => h.engine === "prettier");
      return hook?.version ? { spec: hook.version, from: `its "${hook.id}" hook in ${display}` } : undefined;
    }
    for (let dir = dirname(file.path);; dir = dirname(dir)) {
      // The release installed there is the one the repository's scripts run, whatever range asked for it.
      if ((await this.files.entryNames(dir))?.has("node_modules")) {
        const path = join(dir, "node_modules", tool, "package.json");
        const installed = await this.files.read(path).catch(() => undefined);
        const version = installed ? installedVersion(installed.text) : undefined;
        if (installed && version) {
          return { spec: version, from: this.display(path), sources: [{ path, hash: installed.hash }] };
        }
      }
      if ((await this.files.namesIn(dir)).has("package.json")) {
        const path = join(dir, "package.json");
        const manifest = path === file.path ? file : await this.files.read(path).catch(() => undefined);
        const spec = manifest?.text.includes(`"${tool}"`) ? declaredRelease(manifest.text, tool) : undefined;
        if (manifest && spec !== undefined) {
          const sources = path === file.path ? [] : [{ path, hash: manifest.hash }];
          // A range is what the lockfile resolved it to, as an install would make it.
          const locked = exactRelease(spec) ? undefined : await this.#locked(dir, top, tool, spec);
          if (locked) {
            const from = `${this.display(locked.path)}, for "${spec}" in ${this.display(path)}`;
            return { spec: locked.version, from, sources: [...sources, { path: locked.path, hash: locked.hash }] };
          }
          return { spec, from: this.display(path), sources };
        }
      }
      if (dir === top || dirname(dir) === dir) return undefined;
    }
  }

  /**
   * The release of `name` the nearest JavaScript lockfile from `dir` up to `top` installs for the package in `dir`,
   * whose manifest asks for `range` (lib/config/native/_js_lock.ts); undefined where there is none or it does not say.
   */
  async #locked(
    dir: string,
    top: string,
    name: string,
    range: string,
  ): Promise<{ version: string; path: string; hash: string } | undefined> {
    for (let at = dir;; at = dirname(at)) {
      const names = await this.files.entryNames(at);
      const file = names && JS_LOCKFILES.find((n) => names.has(n));
      if (file) {
        const lock = await this.files.read(join(at, file)).catch(() => undefined);
        if (!lock) return undefined;
        const version = lockedVersion(file, lock, relative(at, dir).split(sep).join("/"), name, range);
        return version ? { version, path: lock.path, hash: lock.hash } : undefined;
      }
      if (at === top || dirname(at) === at) return undefined;
    }
  }

  /** {@link styleFor}'s configuration mapped onto biome's formatter (see `prettier.ts`), once per file. */
  #fromPrettier(path: string, top: string): Promise<NativeEngineConfig | undefined> {
    let found = this.#mapped.get(path);
    if (!found) {
      found = (async () => {
        const style = await this.#style(path, top);
        if (!style || style.unmapped) return style;
        const display = this.display(path);
        try {
          return { ...style, options: styleToBiomeOf(style.style!.tool, style.options, display) };
        } catch (e) {
          // An option biome's formatter cannot take stops biome's formatting under it, not its linting.
          if (!(e instanceof ConfigError)) throw e;
          return { ...style, options: {}, unmapped: e.message };
        }
      })();
      this.#mapped.set(path, found);
    }
    return found;
  }

  async #parse(path: string, from?: string): Promise<Parsed> {
    let file: NativeText;
    try {
      file = await this.files.read(path);
    } catch (e) {
      throw new ConfigError(
        { file: this.display(from ?? path) },
        `cannot read biome configuration "${this.display(path)}": ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    let doc: unknown;
    try {
      doc = parseJsonc(file.text);
    } catch (e) {
      throw parseError(e, this.display(path));
    }
    if (!isTable(doc)) throw new ConfigError({ file: this.display(path) }, "expected a JSON object");
    return { file, doc };
  }

  /** The root configuration for a nested file: the nearest biome file above `dir` without `"root": false`. */
  async #rootAbove(dir: string, top: string): Promise<string | undefined> {
    for (let at = dirname(dir);; at = dirname(at)) {
      const path = await this.#nearestBiome(at, top);
      if (!path) return undefined;
      const { doc } = await this.#parse(path);
      if (doc.root !== false) return path;
      if (dirname(path) === top || dirname(dirname(path)) === dirname(path)) return undefined;
      at = dirname(path);
    }
  }

  /** The configuration of `path`, its extends applied underneath, as a list of layers (base first). */
  async #layers(path: string, top: string, seen: string[]): Promise<Parsed[]> {
    if (seen.includes(path)) {
      throw new ConfigError({ file: this.display(path) }, `"extends" forms a cycle`);
    }
    const own = await this.#parse(path, seen.at(-1));
    const extendsValue = own.doc.extends;
    const list = extendsValue === undefined ? [] : Array.isArray(extendsValue) ? extendsValue : [extendsValue];
    const out: Parsed[] = [];
    for (const entry of list) {
      if (typeof entry !== "string") {
        throw new ConfigError({ file: this.display(path) }, `"extends" entries must be paths`);
      }
      let base: string | undefined;
      if (entry === "//") {
        base = await this.#rootAbove(dirname(path), top);
        if (!base) {
          throw new ConfigError(
            { file: this.display(path) },
            `"extends": "//" but no root biome configuration above it`,
          );
        }
      } else if (entry.startsWith(".") || entry.startsWith("/")) {
        base = join(dirname(path), entry);
      } else {
        throw new ConfigError(
          { file: this.display(path) },
          `"extends": "${entry}" names a package: poly reads only configuration files given by path`,
        );
      }
      out.push(...await this.#layers(base, top, [...seen, path]));
    }
    out.push(own);
    return out;
  }

  /**
   * {@link #resolveOnce} once per file: a monorepo asks for its root configuration from every package's folder. A
   * file that cannot be read as biome reads it (it does not parse, an `extends` poly cannot follow) stops no run: the
   * files biome would lint or format under it say why ({@link NativeEngineConfig.unhonoured}).
   */
  #resolve(path: string, top: string): Promise<NativeEngineConfig> {
    const key = `${path}\0${top}`;
    let found = this.#byFile.get(key);
    if (!found) {
      found = this.#resolveOnce(path, top).catch((e) => unhonouredConfig(this.files, e, dirname(path), path));
      this.#byFile.set(key, found);
    }
    return found;
  }

  /**
   * biome's `formatter.useEditorconfig` folded into `merged` (changed in place), as biome 2.5 folds it: the
   * `.editorconfig` in the configuration's folder alone (not those above or below), its `[*]` section beneath the
   * top-level `formatter` keys and each other section an override of its glob before the file's own `overrides` (so
   * it wins over the top level, language sections included, and loses to them). The file read, if any.
   */
  async #editorconfigInto(merged: Table, dir: string): Promise<NativeText | undefined> {
    const formatter = merged.formatter;
    if (!isTable(formatter) || formatter.useEditorconfig !== true) return undefined;
    delete formatter.useEditorconfig;
    if (!(await this.files.namesIn(dir)).has(".editorconfig")) return undefined;
    const file = await this.files.read(join(dir, ".editorconfig"));
    const overrides: Table[] = [];
    for (const section of parseEditorconfig(file.text, dir, this.display(file.path)).sections) {
      const options = biomeFormatterOf(section.props);
      if (Object.keys(options).length === 0) continue;
      if (section.glob === "*") merged.formatter = { ...options, ...(merged.formatter as Table) };
      else overrides.push({ includes: [biomeGlobOf(section.glob)], formatter: options });
    }
    if (overrides.length > 0) {
      merged.overrides = [...overrides, ...(Array.isArray(merged.overrides) ? merged.overrides : [])];
    }
    return file;
  }

  async #resolveOnce(path: string, top: string): Promise<NativeEngineConfig> {
    const layers = await this.#layers(path, top, []);
    let merged: Table = {};
    const origins: Record<string, string> = {};
    // What poly cannot honour in a file that parses: its `includes` are still read (biome would not touch the files
    // they leave out), and every file biome lints or formats under it says why.
    let unhonoured: ConfigError | undefined;
    for (const { file, doc } of layers) {
      const unknown = await unknownBiomeKey(doc);
      if (unknown) {
        unhonoured ??= new ConfigError(
          { file: this.display(file.path), ...keyPosition(file.text, unknown.split(".")) },
          `biome key "${unknown}" is not in biome ${BIOME_SCHEMA_VERSION}'s configuration schema (biome itself refuses this file; "biome migrate" updates a biome 1 configuration)`,
        );
      }
      const { $schema: _s, extends: _e, root: _r, ...rest } = doc;
      const plugins = rest.plugins;
      if (Array.isArray(plugins) ? plugins.length > 0 : plugins !== undefined) {
        unhonoured ??= new ConfigError(
          { file: this.display(file.path) },
          `biome key "plugins" cannot be honoured by poly (GritQL plugins are not loaded): remove it, or set [tools.biome] native_config = false`,
        );
      }
      delete rest.plugins;
      merged = mergeTables(merged, rest);
      note(origins, rest, this.display(file.path));
    }
    const key = unhonouredKey(merged);
    if (key) {
      unhonoured ??= new ConfigError(
        { file: this.display(path) },
        `${unhonouredText(key)}, or set [tools.biome] native_config = false`,
      );
    }
    const root = dirname(path);
    // biome reads the `.editorconfig` beside its file where `formatter.useEditorconfig` says so: folded in here, as
    // biome folds it, so every path (WebAssembly, native) formats alike without reading it again.
    const editorconfig = await this.#editorconfigInto(merged, root);
    const exclude: NonNullable<NativeEngineConfig["exclude"]> = {};
    const take = (holder: unknown, into: "all" | "lint" | "fmt") => {
      if (!isTable(holder) || holder.includes === undefined) return;
      const list = holder.includes;
      if (!Array.isArray(list)) {
        throw new ConfigError({ file: this.display(path) }, `"includes" must be a list of globs`);
      }
      exclude[into] = list.map((pattern) => ({ pattern: String(pattern), base: root }));
      delete holder.includes;
    };
    merged = structuredClone(merged);
    take(merged.files, "all");
    take(merged.linter, "lint");
    take(merged.formatter, "fmt");
    if (isTable(merged.files) && Object.keys(merged.files).length === 0) delete merged.files;
    if (isTable(merged.vcs)) delete merged.vcs; // poly's discovery honours .gitignore itself
    const files: NativeSource[] = layers.map((l) => ({ path: l.file.path, hash: l.file.hash }));
    if (editorconfig) files.push({ path: editorconfig.path, hash: editorconfig.hash });
    return {
      files: files.filter((f, i) => files.findIndex((g) => g.path === f.path) === i),
      options: unhonoured ? {} : merged,
      root,
      ...(Object.keys(exclude).length > 0 ? { exclude } : {}),
      ...(unhonoured ? { unhonoured: unhonoured.message } : { origins }),
    };
  }
}

/**
 * A `.editorconfig` section's properties as biome 2.5 reads them into its formatter: `indent_style`, `indent_size`,
 * `end_of_line` (`unset`: biome's default); not `max_line_length`, which it does not read. A value it cannot read is
 * passed over.
 */
function biomeFormatterOf(props: Record<string, string>): Table {
  const out: Table = {};
  const style = props.indent_style;
  if (style === "tab" || style === "space") out.indentStyle = style;
  else if (style === "unset") out.indentStyle = "tab";
  const size = props.indent_size;
  if (size !== undefined && /^\d+$/.test(size)) out.indentWidth = Number(size);
  else if (size === "unset") out.indentWidth = 2;
  const eol = props.end_of_line;
  if (eol === "lf" || eol === "crlf" || eol === "cr") out.lineEnding = eol;
  else if (eol === "unset") out.lineEnding = "lf";
  return out;
}

/**
 * An `.editorconfig` section's glob as one of biome's `includes`: relative to the file's folder where it holds a `/`,
 * else matching at any depth (`*.js` as `*.js` in any folder), as editorconfig matches it.
 */
function biomeGlobOf(glob: string): string {
  const outsideBrackets = glob.replace(/\[[^\]]*\]/g, "");
  return outsideBrackets.includes("/") ? glob.replace(/^\//, "") : `**/${glob}`;
}

function note(origins: Record<string, string>, table: Table, file: string, prefix = ""): void {
  for (const [k, v] of Object.entries(table)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (isTable(v) && !key.endsWith("rules")) note(origins, v, file, key);
    else origins[key] = file;
  }
}

/** A biome `includes` list ready to test paths: each glob compiled once, each directory's verdict kept. */
interface Includes {
  patterns: { negated: boolean; match: (path: string) => boolean; belowOnly: boolean }[];
  /** Directories (relative) a negated pattern leaves out, with everything below them: true. */
  dirsOut: Map<string, boolean>;
}

/** By the list's patterns (each directory's configuration resolves a list object of its own). */
const byPatterns = new Map<string, Includes>();

function includesOf(list: NativePattern[]): Includes {
  const key = list.map((p) => p.pattern).join("\0");
  let found = byPatterns.get(key);
  if (!found) {
    const patterns = list.map((p) => {
      const glob = p.pattern.replace(/^!!?/, "");
      const negated = p.pattern.startsWith("!");
      // biome's `x/**` matches what is below x, not x itself (picomatch's would).
      const match = picomatch(glob, { dot: true }) as (path: string) => boolean;
      return { negated, match, belowOnly: glob.endsWith("/**") };
    });
    byPatterns.set(key, found = { patterns, dirsOut: new Map() });
  }
  return found;
}

/** Whether `dir` (relative, "" for the configuration's own) or a directory above it is left out. */
function dirOut(includes: Includes, dir: string): boolean {
  if (dir === "") return false;
  let out = includes.dirsOut.get(dir);
  if (out === undefined) {
    const slash = dir.lastIndexOf("/");
    out = dirOut(includes, slash < 0 ? "" : dir.slice(0, slash));
    if (!out) {
      let verdict: boolean | undefined;
      for (const p of includes.patterns) {
        if (p.negated ? !p.belowOnly && p.match(dir) : p.match(dir)) verdict = !p.negated;
      }
      out = verdict === false;
    }
    includes.dirsOut.set(dir, out);
  }
  return out;
}

/**
 * Whether a biome `includes` list takes `rel` (a path relative to the
 * configuration's directory): the last pattern that matches decides (`!` and
 * `!!` exclude); nothing matching leaves it out. A directory a negated pattern
 * matches leaves out everything below it. A run asks this for every file: the
 * list is compiled once and each directory judged once.
 */
export function biomeIncludes(list: NativePattern[], rel: string): boolean {
  const includes = includesOf(list);
  const slash = rel.lastIndexOf("/");
  if (dirOut(includes, slash < 0 ? "" : rel.slice(0, slash))) return false;
  let taken = false;
  for (const p of includes.patterns) if (p.match(rel)) taken = !p.negated;
  return taken;
}

/** Why biome's includes keep `absPath` from biome for `kind`, or undefined. */
export function biomeExcluded(native: NativeEngineConfig, kind: "lint" | "fmt", absPath: string): string | undefined {
  if (!native.exclude) return undefined;
  // Asked for every file of a run: a prefix test, not `relative` (which resolves both paths again).
  const rel = relativeInside(native.root, absPath);
  if (rel === undefined) return undefined;
  const lists = [
    ["files.includes", native.exclude.all],
    [
      kind === "lint" ? "linter.includes" : "formatter.includes",
      kind === "lint" ? native.exclude.lint : native.exclude.fmt,
    ],
  ] as const;
  for (const [key, list] of lists) {
    if (list && !biomeIncludes(list, rel)) {
      const where = relative(dirname(absPath), native.files.at(-1)?.path ?? native.root);
      return `ignored by biome: not in ${key} of "${where}"`;
    }
  }
  return undefined;
}
