/**
 * The formatters poly does not run, found as they find their configuration, by the language they keep:
 *
 * - Python: yapf's `.style.yapf`, a `setup.cfg` with a `[yapf]` section or a `pyproject.toml` with a `[tool.yapf]`
 *   table (yapf's `GetDefaultStyleForDir`: from the file's folder up, the first folder holding one), and pyink's
 *   `[tool.pyink]` (Google's fork of black, two-space indents);
 * - SQL: SQLFluff's `.sqlfluff`, a `[sqlfluff]` (or `[sqlfluff:...]`) section of `setup.cfg`, `tox.ini` or `pep8.ini`,
 *   or a `[tool.sqlfluff]` table of `pyproject.toml` (the files SQLFluff merges in each folder), dbt projects' linter
 *   and fixer of layout;
 * - TOML: taplo's `.taplo.toml` or `taplo.toml`, tombi's `tombi.toml`, `.tombi.toml` or a `[tool.tombi]` table of
 *   `pyproject.toml`;
 * - YAML: yamlfmt's `.yamlfmt`, `yamlfmt.yml`, `yamlfmt.yaml`, `.yamlfmt.yaml` or `.yamlfmt.yml`;
 * - Protobuf: buf's `buf.yaml` or `buf.work.yaml` (a module `buf format` formats), protolint's `.protolint.yaml` or
 *   `.protolint.yml`;
 * - Markdown: mdformat's `.mdformat.toml`;
 * - HTML: djLint's `djlint.toml`, `.djlint.toml`, `.djlintrc` or a `[tool.djlint]` table of `pyproject.toml`;
 * - SQL also sql-formatter's `.sql-formatter.json`;
 * - pylint's width (`max-line-length` in `pylintrc`, `.pylintrc`, `pylintrc.toml`, a `[tool.pylint...]` table or a
 *   `[pylint...]` section), under the key `pylint`: it keeps Python only where nothing configures its formatter;
 * - Java: a build that formats it — Spotless (its Gradle plugin or `spotless-maven-plugin`), Spring Java Format
 *   (`io.spring.javaformat`, `spring-javaformat-maven-plugin`), Palantir Java Format (`com.palantir.java-format`),
 *   google-java-format's build plugins (`fmt-maven-plugin`, `googleformatter-maven-plugin`,
 *   `com.github.sherter.google-java-format`), the Eclipse formatter's `formatter-maven-plugin` or prettier-java's
 *   `prettier-maven-plugin`, or Checkstyle's layout checks (`maven-checkstyle-plugin`, Gradle's `checkstyle` plugin, its
 *   `config/checkstyle/checkstyle.xml`) — named in a folder's `pom.xml`, `build.gradle(.kts)` or `settings.gradle(.kts)`, and
 *   beside a Gradle build's settings or build file in its version catalog (`gradle/libs.versions.toml`) or its
 *   convention plugins' build (`buildSrc/`, `build-logic/`), where mockito/mockito applies Spotless. A module's build
 *   file that names none is passed over, to its parent's (a Maven parent, a Gradle root applying it to subprojects).
 *
 * A repository formatting a language with one of them keeps its style with it, so poly's formatter of that language
 * would rewrite code it keeps on purpose: lib/run/plan.ts leaves those files unformatted, saying so, unless poly.toml
 * names the formatter (`[fmt.python.ruff]`). The user-level files (`~/.config/yapf/style`, `~/.sqlfluff`, ...) are not
 * read (results must not depend on files outside the repository and the cache key). PHP's are Mago's reader's
 * (lib/config/native/mago.ts): they weigh against a `mago.toml`.
 *
 * @module
 */
import { basename, join } from "node:path";
import type { NativeFiles, NativeText } from "./_files.ts";
import { nearestUp } from "./_reading.ts";
import type { NativeEngineConfig } from "./types.ts";

/** A tool's file found in one folder: the file and how the plan names the tool (`yapf (.style.yapf)`). */
interface Found {
  file: NativeText;
  keptBy: string;
}

/** The files the tools of one language read in one folder, in the order they are looked at. */
interface Keeper {
  language: string;
  /** Files whose presence is the tool's configuration. */
  own: readonly string[];
  tool: string;
  /**
   * Shared files holding the tool's section, table or plugin: the file's name (a path below the folder where it has a
   * `/`, looked for only beside a Gradle build), the pattern, what the message names (empty: the file alone).
   */
  shared?: readonly [name: string, header: RegExp, named: string][];
}

/** An INI section header `[name]` (or `[name:sub]` where `sub` is allowed). */
const ini = (name: string, sub = false) =>
  new RegExp(String.raw`^[ \t]*\[${name}${sub ? "(?::[^\\]]*)?" : ""}\][ \t]*(?:[#;].*)?$`, "m");
/** A TOML table header `[tool.name]` (or `[tool.name.sub]` where `sub` is allowed). */
const tool = (name: string, sub = false) =>
  new RegExp(
    String.raw`^[ \t]*\[[ \t]*"?tool"?[ \t]*\.[ \t]*"?${name}"?${
      sub ? String.raw`(?:[ \t]*\.[^\]]*)?` : ""
    }[ \t]*\][ \t]*(?:#.*)?$`,
    "m",
  );

/** The key under which pylint's width is found ({@link KeptStyleReader}); not a language. */
export const PYLINT = "pylint";
/** pylint's width, `max-line-length = 100`, in its own files. */
const MAX_LINE_LENGTH = /^[ \t]*max-line-length[ \t]*=/m;
/** A shared file holding pylint's section (`header`) and a `max-line-length`. */
const both = (header: RegExp) =>
  // Tried at the text's start only (`(?<![\\s\\S])`), not again at each place.
  new RegExp(`(?<![\\s\\S])(?=[\\s\\S]*${header.source})(?=[\\s\\S]*${MAX_LINE_LENGTH.source})`, "m");

/** Gradle's and Maven's build files, where a build applies a Java formatter. */
const MAVEN = ["pom.xml"] as const;
const GRADLE = ["build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts"] as const;
/** Beside a Gradle build's own files: its version catalog, and the builds of its convention plugins. */
const GRADLE_BESIDE = [
  "gradle/libs.versions.toml",
  "buildSrc/build.gradle",
  "buildSrc/build.gradle.kts",
  "build-logic/build.gradle",
  "build-logic/build.gradle.kts",
] as const;

/** A Maven plugin's `<artifactId>`. */
const artifact = (id: string) => new RegExp(String.raw`<artifactId>\s*${id}\s*</artifactId>`);

/** A Java formatter applied by a build: in a `pom.xml` by its plugin, in Gradle's files by its plugin's name. */
function javaBuild(
  tool: string,
  maven: RegExp | undefined,
  gradle: RegExp | undefined,
  named: string,
  more: [string, RegExp, string][] = [],
): Keeper {
  return {
    language: "java",
    tool,
    own: [],
    shared: [
      ...(maven ? MAVEN.map((name): [string, RegExp, string] => [name, maven, named]) : []),
      ...(gradle ? [...GRADLE, ...GRADLE_BESIDE].map((name): [string, RegExp, string] => [name, gradle, ""]) : []),
      ...more,
    ],
  };
}

const KEEPERS: readonly Keeper[] = [
  {
    language: "python",
    tool: "yapf",
    own: [".style.yapf"],
    shared: [["setup.cfg", ini("yapf"), "[yapf]"], ["pyproject.toml", tool("yapf"), "[tool.yapf]"]],
  },
  { language: "python", tool: "pyink", own: [], shared: [["pyproject.toml", tool("pyink"), "[tool.pyink]"]] },
  {
    language: "sql",
    tool: "SQLFluff",
    own: [".sqlfluff"],
    shared: [
      ["setup.cfg", ini("sqlfluff", true), "[sqlfluff]"],
      ["tox.ini", ini("sqlfluff", true), "[sqlfluff]"],
      ["pep8.ini", ini("sqlfluff", true), "[sqlfluff]"],
      ["pyproject.toml", tool("sqlfluff", true), "[tool.sqlfluff]"],
    ],
  },
  { language: "toml", tool: "taplo", own: [".taplo.toml", "taplo.toml"] },
  {
    language: "toml",
    tool: "tombi",
    own: ["tombi.toml", ".tombi.toml"],
    shared: [["pyproject.toml", tool("tombi", true), "[tool.tombi]"]],
  },
  {
    language: "yaml",
    tool: "yamlfmt",
    own: [".yamlfmt", "yamlfmt.yml", "yamlfmt.yaml", ".yamlfmt.yaml", ".yamlfmt.yml"],
  },
  // buf finds its module from the file's folder up (bufbuild/buf#1056); `buf format` has no options to read.
  { language: "protobuf", tool: "buf", own: ["buf.yaml", "buf.work.yaml"] },
  { language: "protobuf", tool: "protolint", own: [".protolint.yaml", ".protolint.yml"] },
  { language: "markdown", tool: "mdformat", own: [".mdformat.toml"] },
  {
    language: "html",
    tool: "djLint",
    own: ["djlint.toml", ".djlint.toml", ".djlintrc"],
    shared: [["pyproject.toml", tool("djlint"), "[tool.djlint]"]],
  },
  { language: "sql", tool: "sql-formatter", own: [".sql-formatter.json"] },
  // Not a language: pylint's width (`max-line-length`), which keeps Python only where nothing configures its formatter
  // (lib/run/plan.ts, as flake8's does). pylint's files in its order in one folder.
  {
    language: PYLINT,
    tool: "pylint",
    own: [],
    shared: [
      ["pylintrc", MAX_LINE_LENGTH, "max-line-length"],
      [".pylintrc", MAX_LINE_LENGTH, "max-line-length"],
      ["pylintrc.toml", MAX_LINE_LENGTH, "max-line-length"],
      [".pylintrc.toml", MAX_LINE_LENGTH, "max-line-length"],
      ["pyproject.toml", both(/^[ \t]*\[[ \t]*tool\.pylint\b/m), "max-line-length"],
      ["setup.cfg", both(/^[ \t]*\[pylint\b/m), "max-line-length"],
      ["tox.ini", both(/^[ \t]*\[pylint\b/m), "max-line-length"],
    ],
  },
  javaBuild("Spotless", artifact("spotless-maven-plugin"), /\bspotless\b/i, "spotless-maven-plugin"),
  javaBuild(
    "Spring Java Format",
    artifact("spring-javaformat-maven-plugin"),
    /\bio\.spring\.javaformat\b/,
    "spring-javaformat-maven-plugin",
  ),
  javaBuild("Palantir Java Format", undefined, /\bcom\.palantir\.(?:java-format|baseline-format)\b/, ""),
  javaBuild(
    "google-java-format",
    artifact("(?:fmt-maven-plugin|googleformatter-maven-plugin)"),
    /\bcom\.github\.sherter\.google-java-format\b/,
    "its Maven plugin",
  ),
  javaBuild("the Eclipse formatter", artifact("formatter-maven-plugin"), undefined, "formatter-maven-plugin"),
  javaBuild("prettier-java", artifact("prettier-maven-plugin"), undefined, "prettier-maven-plugin"),
  // A linter, as ESLint's style rules are: its layout checks (indentation, line length, import groups) fail on what
  // poly's formatter would write (apache/commons-lang: 616 of its 626 Java files rewritten).
  javaBuild("Checkstyle", artifact("maven-checkstyle-plugin"), /\bcheckstyle\b/, "maven-checkstyle-plugin", [
    // Gradle's checkstyle plugin's configuration where it looks by default.
    ["config/checkstyle/checkstyle.xml", /<module\s+name\s*=\s*"Checker"/, ""],
  ]),
];

/** Every file name the keepers look for (lib/config/native/_files.ts lists them). */
export const KEPT_STYLE_FILES: readonly string[] = [
  ...new Set(KEEPERS.flatMap((k) => [...k.own, ...(k.shared ?? []).map(([name]) => basename(name))])),
];

/** The languages a kept style applies to. */
const LANGUAGES = [...new Set(KEEPERS.map((k) => k.language))];

/** Reads which formatter poly does not run keeps each language's style in a folder. */
export class KeptStyleReader {
  readonly #byLanguage = new Map<string, Map<string, Promise<Found | undefined>>>();
  readonly #combined = new Map<string, NativeEngineConfig>();

  constructor(private readonly files: NativeFiles) {}

  /**
   * What keeps `dir`'s languages (bounded by `top`): `options` maps a language to the tool and where it was found
   * (`yapf (.style.yapf)`), `files` the files found; undefined where no language is kept. One object per combination.
   */
  async forDir(dir: string, top: string): Promise<NativeEngineConfig | undefined> {
    const found: [string, Found][] = [];
    for (const language of LANGUAGES) {
      let memo = this.#byLanguage.get(language);
      if (!memo) this.#byLanguage.set(language, memo = new Map());
      const hit = await nearestUp(memo, dir, top, (d) => this.#here(d, language));
      if (hit) found.push([language, hit]);
    }
    if (found.length === 0) return undefined;
    const key = found.map(([language, f]) => `${language}\0${f.file.path}`).join("\0");
    let config = this.#combined.get(key);
    if (!config) {
      const files = [
        ...new Map(found.map(([, f]) => [f.file.path, { path: f.file.path, hash: f.file.hash }])).values(),
      ];
      const options = Object.fromEntries(found.map(([language, f]) => [language, f.keptBy]));
      config = { files, options, root: top, ignoreOnly: true };
      this.#combined.set(key, config);
    }
    return config;
  }

  /** The first tool's file keeping `language` in `dir` itself. */
  async #here(dir: string, language: string): Promise<Found | undefined> {
    const names = await this.files.namesIn(dir);
    const gradle = GRADLE.some((name) => names.has(name));
    for (const keeper of KEEPERS) {
      if (keeper.language !== language) continue;
      const own = keeper.own.find((name) => names.has(name));
      if (own) return { file: await this.files.read(join(dir, own)), keptBy: `${keeper.tool} (${own})` };
      for (const [name, header, named] of keeper.shared ?? []) {
        if (!(name.includes("/") ? gradle && await this.#beside(dir, name) : names.has(name))) continue;
        const file = await this.files.read(join(dir, name));
        if (header.test(file.text)) return { file, keptBy: `${keeper.tool} (${named ? `${named} in ` : ""}${name})` };
      }
    }
    return undefined;
  }

  /** Whether the file at `name`, a path below `dir`, is there (each folder listed only where the one above has it). */
  async #beside(dir: string, name: string): Promise<boolean> {
    const parts = name.split("/");
    let at = dir;
    for (const folder of parts.slice(0, -1)) {
      if (!(await this.files.entryNames(at))?.has(folder)) return false;
      at = join(at, folder);
    }
    return (await this.files.namesIn(at)).has(parts.at(-1)!);
  }
}
