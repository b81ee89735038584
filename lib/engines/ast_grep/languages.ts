/**
 * Rule languages: the names a rule file may give in `language:`, the ast-grep
 * parser each one uses, and which files it applies to.
 *
 * - A rule applies to the file extensions of its language exactly as `ast-grep
 *   scan` maps them ({@link RULE_EXTENSIONS}): `typescript` → .ts .mts .cts,
 *   `tsx` → .tsx, `javascript` → .js .mjs .cjs .jsx, `python` → .py .pyi, ... — so
 *   a file without one of them (a shebang script, `.pyw`) gets no rule of it.
 * - `dockerfile` is a poly extension: the rule's patterns are shell, matched
 *   against the `RUN` instructions of a Dockerfile.
 *
 * Dynamic parsers (Python, Go, Rust, Bash, YAML) come from `@ast-grep/lang-*`
 * prebuilt libraries: their files are found here, registered with napi in
 * `napi.ts` (this module loads no parser).
 *
 * @module
 */
import type { LangPackage } from "./_parsers.ts";
import { basename, extname, join } from "node:path";
import type { Language } from "../types.ts";

/** A rule language (canonical, lower-case). */
export type RuleLanguage =
  | "javascript"
  | "typescript"
  | "tsx"
  | "python"
  | "go"
  | "rust"
  | "bash"
  | "yaml"
  | "dockerfile"
  | "html"
  | "css";

/** The parser names ast-grep's napi accepts. */
export type ParserName =
  | "JavaScript"
  | "TypeScript"
  | "Tsx"
  | "Html"
  | "Css"
  | "python"
  | "go"
  | "rust"
  | "bash"
  | "yaml";

/** Every rule language, sorted. */
export const RULE_LANGUAGES: readonly RuleLanguage[] = [
  "bash",
  "css",
  "dockerfile",
  "go",
  "html",
  "javascript",
  "python",
  "rust",
  "tsx",
  "typescript",
  "yaml",
];

const ALIASES: Record<string, RuleLanguage> = {
  javascript: "javascript",
  js: "javascript",
  jsx: "javascript",
  typescript: "typescript",
  ts: "typescript",
  tsx: "tsx",
  python: "python",
  py: "python",
  go: "go",
  golang: "go",
  rust: "rust",
  rs: "rust",
  bash: "bash",
  sh: "bash",
  shell: "bash",
  yaml: "yaml",
  yml: "yaml",
  dockerfile: "dockerfile",
  docker: "dockerfile",
  html: "html",
  css: "css",
};

/** Resolves a `language:` value (case-insensitive, with ast-grep's aliases), or undefined. */
export function ruleLanguage(name: string): RuleLanguage | undefined {
  return ALIASES[name.toLowerCase()];
}

/** The parser a rule language's patterns are written in. */
export function primaryParser(lang: RuleLanguage): ParserName {
  switch (lang) {
    case "javascript":
      return "JavaScript";
    case "typescript":
      return "TypeScript";
    case "tsx":
      return "Tsx";
    case "html":
      return "Html";
    case "css":
      return "Css";
    case "dockerfile":
      return "bash";
    default:
      return lang;
  }
}

/** The poly languages (of discovery) a rule language can apply to: what the engine lints. */
export const POLY_LANGUAGES_OF: Record<RuleLanguage, readonly Language[]> = {
  javascript: ["javascript"],
  typescript: ["typescript"],
  tsx: ["typescript"],
  python: ["python"],
  go: ["go"],
  rust: ["rust"],
  bash: ["shell"],
  yaml: ["yaml"],
  dockerfile: ["dockerfile"],
  html: ["html"],
  css: ["css"],
};

/**
 * The file extensions (with the dot, case-sensitive) `ast-grep scan` 0.51 gives each rule
 * language, without `languageGlobs` (its `SupportLang` extension lists; `sh.in` is
 * left out: poly never calls such a file shell). `dockerfile`, poly's own, has none:
 * it applies to every Dockerfile.
 */
export const RULE_EXTENSIONS: Readonly<Record<RuleLanguage, readonly string[] | undefined>> = {
  javascript: [".js", ".mjs", ".cjs", ".jsx"],
  typescript: [".ts", ".mts", ".cts"],
  tsx: [".tsx"],
  python: [".py", ".py3", ".pyi", ".bzl"],
  go: [".go"],
  rust: [".rs"],
  bash: [".bash", ".bats", ".cgi", ".command", ".env", ".fcgi", ".ksh", ".sh", ".tmux", ".tool", ".zsh"],
  yaml: [".yaml", ".yml"],
  dockerfile: undefined,
  html: [".html", ".htm", ".xhtml"],
  css: [".css", ".scss"],
};

/**
 * Which parser a rule of language `lang` uses for `file`, or undefined when the
 * rule does not apply to it: the file's language is not one the rule's can be,
 * or its extension is not one ast-grep gives the rule's language
 * ({@link RULE_EXTENSIONS}, compared as written: ast-grep skips `A.TS`). `ext` is
 * the file's extension with its dot (computed when not given).
 */
export function parserFor(
  lang: RuleLanguage,
  file: { path: string; language: Language },
  ext: string = extname(file.path),
): ParserName | undefined {
  if (!POLY_LANGUAGES_OF[lang].includes(file.language)) return undefined;
  const exts = RULE_EXTENSIONS[lang];
  if (exts && !exts.includes(ext)) return undefined;
  return primaryParser(lang);
}

/** The character a pattern's `$` is rewritten to before parsing (ast-grep's expando char). */
export function expandoChar(parser: ParserName): string {
  return parser === "python" || parser === "go" || parser === "rust" ? "µ" : "$";
}

export type { LangPackage };

let files: Promise<Record<string, LangPackage>> | undefined;

/**
 * The dynamic parsers' libraries on the real file system (extracted from a
 * compiled binary first), by parser name, without registering them with napi:
 * what the command line is given. Remembered per build of poly's code in
 * `<cache home>/rules/parsers-<code>.json` (while every library is still there):
 * loading the five `@ast-grep/lang-*` packages to ask costs a run ~17 ms.
 */
export function parserFiles(): Promise<Readonly<Record<string, Readonly<LangPackage>>>> {
  files ??= (async () => {
    const { codeMemoPath, readMemoFile, writeMemoFile } = await import("../../cache/build.ts");
    const memo = await codeMemoPath("rules", "parsers-");
    const known = present(readMemoFile(memo));
    if (known) return known;
    const { DYNAMIC_PACKAGES } = await import("./_parsers.ts");
    const out: Record<string, LangPackage> = {};
    for (const [name, pkg] of Object.entries(DYNAMIC_PACKAGES)) {
      const libraryPath = Deno.build.standalone ? await extractLibrary(name, pkg.libraryPath) : pkg.libraryPath;
      out[name] = {
        libraryPath,
        extensions: pkg.extensions,
        languageSymbol: pkg.languageSymbol,
        expandoChar: pkg.expandoChar,
      };
    }
    await writeMemoFile(memo, out, "parsers-");
    return out;
  })();
  return files;
}

/** The remembered parsers, when the memo held some and every library it names is still there. */
function present(value: unknown): Record<string, LangPackage> | undefined {
  if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
  const parsers = value as Record<string, LangPackage>;
  const all = Object.values(parsers);
  if (all.length === 0) return undefined;
  try {
    return all.every((p) => typeof p.libraryPath === "string" && Deno.statSync(p.libraryPath).isFile)
      ? parsers
      : undefined;
  } catch {
    return undefined; // a library gone: ask the packages again
  }
}

async function extractLibrary(name: string, virtualPath: string): Promise<string> {
  const { cacheHome } = await import("../../paths/mod.ts");
  const bytes = await Deno.readFile(virtualPath);
  const { digestOf } = await import("../../cache/digest.ts");
  const digest = digestOf(bytes).slice(0, 16);
  const dir = join(cacheHome(), "parsers");
  const target = join(dir, `${name}-${digest}-${basename(virtualPath)}`);
  try {
    const info = await Deno.stat(target);
    if (info.size === bytes.length) return target;
  } catch {
    // not extracted yet
  }
  await Deno.mkdir(dir, { recursive: true });
  const { writeFileAtomic } = await import("../../fs/atomic.ts");
  await writeFileAtomic(target, bytes, { mode: 0o755 });
  return target;
}
