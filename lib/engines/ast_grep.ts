/**
 * ast-grep: structural rules (the built-in pack plus `[rules] dirs`) over
 * JavaScript/TypeScript, Python, Go, Rust, shell, YAML (GitHub Actions),
 * Dockerfile `RUN` lines, HTML and CSS. Tier: in-process (`@ast-grep/napi`, an
 * N-API module, and the `@ast-grep/lang-*` parser libraries). Cache namespace:
 * "rules" — its key must include the rule set's digest (`rulesCacheSalt(settings)`).
 *
 * Settings it reads (the pipeline passes them to cross-cutting engines):
 * `settings.rules` (the `[rules]` table: dirs, builtin, overrides) and
 * `settings.configDir` (where `dirs` and `files`/`ignores` globs are relative to).
 * Every enabled rule whose language covers a file runs on it: one parse per file
 * and parser, one `findAll` per rule. `fix` applies rule fixes until stable.
 *
 * @module
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { EngineInstance, EngineSpec, Language } from "./types.ts";

/** Languages at least one rule language covers. */
const LANGUAGES: readonly Language[] = [
  "javascript",
  "typescript",
  "python",
  "go",
  "rust",
  "shell",
  "yaml",
  "dockerfile",
  "html",
  "css",
];

/** The ast-grep engine. */
export const astGrepEngine: EngineSpec = {
  id: "ast-grep",
  tier: "in-process",
  lintLanguages: LANGUAGES,
  formatLanguages: [],
  capabilities: { lint: true, format: false, fix: true },
  upstream: "@ast-grep/napi 0.51.1",
  defaultEnabled: true,
  crossCutting: true,
  cacheSalt: async (settings) => (await import("../rules/settings.ts")).rulesCacheSalt(settings),
  moduleUrls: async () => {
    const { parserLibraryPaths } = await import("../rules/_langs.ts");
    return [...nativeBinding(), ...parserLibraryPaths()];
  },
  load: async (): Promise<EngineInstance> => {
    const { ruleSetFor } = await import("../rules/settings.ts");
    const { fixWithRules, lintWithRules } = await import("../rules/diagnose.ts");
    return {
      async lint(file, settings) {
        const set = await ruleSetFor(settings, dirname(file.path));
        return { diagnostics: await lintWithRules(set, file) };
      },
      async fix(file, settings) {
        const set = await ruleSetFor(settings, dirname(file.path));
        return await fixWithRules(set, file);
      },
    };
  },
};

/** The napi binding's native module for this platform (best effort; empty when not found). */
function nativeBinding(): string[] {
  try {
    const require = createRequire(import.meta.url);
    const napiDir = dirname(require.resolve("@ast-grep/napi"));
    const arch = Deno.build.arch === "aarch64" ? "arm64" : "x64";
    const os = Deno.build.os === "windows" ? "win32" : Deno.build.os;
    const suffix = os === "linux" ? `-${Deno.build.env === "musl" ? "musl" : "gnu"}` : os === "win32" ? "-msvc" : "";
    const name = `@ast-grep/napi-${os}-${arch}${suffix}`;
    const pkg = dirname(createRequire(join(napiDir, "index.js")).resolve(`${name}/package.json`));
    const file = [...Deno.readDirSync(pkg)].find((e) => e.name.endsWith(".node"));
    return file ? [join(pkg, file.name)] : [];
  } catch {
    return [];
  }
}
