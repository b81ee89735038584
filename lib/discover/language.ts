/**
 * Language detection: by extension, by well-known file name, and by shebang.
 *
 * @module
 */
import type { Language } from "../engines/types.ts";

/** Extension (lower case, without the dot) → language. */
export const EXTENSIONS: Readonly<Record<string, Language>> = {
  py: "python",
  pyi: "python",
  pyw: "python",
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  jsx: "javascript",
  ts: "typescript",
  mts: "typescript",
  cts: "typescript",
  tsx: "typescript",
  json: "json",
  jsonc: "json",
  css: "css",
  graphql: "graphql",
  gql: "graphql",
  go: "go",
  sh: "shell",
  bash: "shell",
  // Bats test files: shfmt formats them as bats, shellcheck checks them (its own bats support).
  bats: "shell",
  toml: "toml",
  md: "markdown",
  markdown: "markdown",
  yaml: "yaml",
  yml: "yaml",
  dockerfile: "dockerfile",
  containerfile: "dockerfile",
  c: "c",
  h: "c",
  cc: "cpp",
  cpp: "cpp",
  cxx: "cpp",
  hpp: "cpp",
  hh: "cpp",
  hxx: "cpp",
  java: "java",
  proto: "protobuf",
  sql: "sql",
  lua: "lua",
  php: "php",
  html: "html",
  htm: "html",
  vue: "vue",
  svelte: "svelte",
  astro: "astro",
  svg: "svg",
  rs: "rust",
  zig: "zig",
  rb: "ruby",
  rake: "ruby",
  gemspec: "ruby",
  kt: "kotlin",
  kts: "kotlin",
  swift: "swift",
  cs: "csharp",
  scala: "scala",
};

/**
 * Why a Jupyter notebook (`.ipynb`, which `ruff check` and `ruff format` read) is listed as skipped on every walk, or
 * undefined for any other file: no engine reads one (ruff's WebAssembly build parses no IPython syntax and knows no
 * cells; docs/engines.md).
 */
export function notebookSkip(relPath: string): string | undefined {
  return /\.ipynb$/i.test(relPath)
    ? "Jupyter notebook: no engine reads one (ruff's WebAssembly build parses no IPython syntax nor cells)"
    : undefined;
}

/** Whole file names (exact case) → language. */
export const FILE_NAMES: Readonly<Record<string, Language>> = {
  Dockerfile: "dockerfile",
  dockerfile: "dockerfile",
  Containerfile: "dockerfile",
  Pipfile: "toml",
  Gemfile: "ruby",
  Rakefile: "ruby",
  ".bashrc": "shell",
  ".bash_profile": "shell",
  ".bash_login": "shell",
  ".bash_logout": "shell",
  ".bash_aliases": "shell",
  ".profile": "shell",
  // Configuration files prettier formats by name (its JSON and YAML languages' `filenames`; lock files and generated
  // baselines left out): JSON, then YAML (`.eslintrc`: YAML's parser reads its JSON form too). Not `.prettierrc`:
  // `prettier --check` leaves its own JSON-written file as it is, where YAML's formatting would quote it anew.
  ...Object.fromEntries(
    [
      ".all-contributorsrc",
      ".arcconfig",
      ".auto-changelog",
      ".babelrc",
      ".c8rc",
      ".htmlhintrc",
      ".imgbotconfig",
      ".jscsrc",
      ".jshintrc",
      ".jslintrc",
      ".nycrc",
      ".releaserc",
      ".swcrc",
      ".tern-config",
      ".tern-project",
      ".watchmanconfig",
    ].map((name) => [name, "json"]),
  ),
  ...Object.fromEntries(
    [".clang-format", ".clang-tidy", ".clangd", ".eslintrc", ".gemrc", ".lintstagedrc", ".stylelintrc"]
      .map((name) => [name, "yaml"]),
  ),
  "CITATION.cff": "yaml",
};

/** Interpreter named by a shebang (version suffix removed) → language. */
export const INTERPRETERS: Readonly<Record<string, Language>> = {
  python: "python",
  pypy: "python",
  node: "javascript",
  nodejs: "javascript",
  deno: "typescript",
  bun: "typescript",
  tsx: "typescript",
  "ts-node": "typescript",
  sh: "shell",
  bash: "shell",
  dash: "shell",
  bats: "shell",
  ruby: "ruby",
  lua: "lua",
  php: "php",
};

/**
 * The language of a file, from its path and (for names that say nothing) its
 * first line. Returns `"unknown"` when nothing matches; `zsh`, `fish` and
 * Makefiles are deliberately unknown (no engine speaks them).
 *
 * @example
 * ```ts
 * detectLanguage("src/app.tsx"); // "typescript"
 * detectLanguage("bin/tool", "#!/usr/bin/env python3"); // "python"
 * ```
 */
export function detectLanguage(path: string, firstLine?: string): Language {
  const name = path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
  const byName = FILE_NAMES[name];
  if (byName) return byName;
  const dot = name.lastIndexOf(".");
  const byExt = dot > 0 ? EXTENSIONS[name.slice(dot + 1).toLowerCase()] : undefined;
  // `Dockerfile.dev`, `Containerfile.prod`; an extension that names a language wins (`dockerfile.md` is Markdown).
  if (!byExt && /^(Dockerfile|Containerfile)\./i.test(name)) return "dockerfile";
  if (byExt) return byExt;
  if (firstLine !== undefined) return languageOfShebang(firstLine) ?? "unknown";
  return "unknown";
}

/** Whether a file's language can only come from its first line (no extension, no known name). */
export function needsShebang(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return detectLanguage(path) === "unknown" && name.lastIndexOf(".") <= 0;
}

/**
 * The language a shebang line names, e.g. `#!/usr/bin/env -S deno run` → typescript.
 * Handles `env` with flags and `VAR=value` assignments, and version suffixes (`python3.12`).
 */
export function languageOfShebang(line: string): Language | undefined {
  if (!line.startsWith("#!")) return undefined;
  const words = line.slice(2).trim().split(/\s+/);
  let program = basename(words.shift() ?? "");
  if (program === "env") {
    while (words.length > 0 && (words[0].startsWith("-") || words[0].includes("="))) words.shift();
    program = basename(words.shift() ?? "");
  }
  const bare = program.replace(/[0-9.]+$/, "");
  return INTERPRETERS[bare];
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}
