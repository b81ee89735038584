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
 * Batch (`batch.lint`): in check runs the pipeline hands `lintMany` all of a
 * settings' files at once, and they are scanned by one `ast-grep scan` process
 * (npm `@ast-grep/cli`, the same version, multi-threaded; see
 * `lib/engines/ast_grep/_cli_bin.ts`) with the effective rule set, its matches
 * turned into diagnostics by the same code as napi's. Files or rule groups it
 * cannot reproduce exactly go through napi file by file, as does every file of a
 * batch whose process is missing or fails (`lib/engines/ast_grep/batch.ts`). In a cold run
 * the process starts before the files are read (`startLintMany`).
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { RuleSet } from "../../rules/types.ts";
import type { StartedRulesBatch } from "./batch.ts";
import type { EngineInstance, EngineSpec, Language, LintOutput, Settled, SourceFile } from "../types.ts";

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
  upstream: "@ast-grep/napi 0.51.1 + @ast-grep/cli 0.51.1",
  defaultEnabled: true,
  crossCutting: true,
  batch: { lint: true },
  // fixWithRules applies the edits of the very matches lintWithRules reports (diagnose.ts).
  fixesFindings: true,
  cacheSalt: async (settings) => (await import("./settings.ts")).rulesCacheSalt(settings),
  moduleUrls: async () => {
    const { parserLibraryPaths } = await import("./_parsers.ts");
    return [...nativeBinding(), ...parserLibraryPaths(), ...await cliManifest()];
  },
  load: async (): Promise<EngineInstance> => {
    const { ruleSetFor } = await import("./settings.ts");
    const { fixWithRules, lintWithRules } = await import("./diagnose.ts");
    const instance: EngineInstance = {
      async lint(file, settings) {
        const set = await ruleSetFor(settings, dirname(file.path));
        return { diagnostics: await lintWithRules(set, file) };
      },
      async fix(file, settings) {
        const set = await ruleSetFor(settings, dirname(file.path));
        return await fixWithRules(set, file);
      },
      async lintMany(files, settings) {
        const { lintBatch } = await import("./batch.ts");
        // One batch per rule set: files resolve to different sets only when the settings name
        // no configDir (then each file's directory stands in for it, as in `lint`).
        const batches = new Map<RuleSet, number[]>();
        const configDir = settings.configDir ?? settings.tool.configDir;
        if (typeof configDir === "string") batches.set(await ruleSetFor(settings), files.map((_, i) => i));
        else {
          for (const [i, file] of files.entries()) {
            const set = await ruleSetFor(settings, dirname(file.path));
            const indexes = batches.get(set);
            if (indexes) indexes.push(i);
            else batches.set(set, [i]);
          }
        }
        const out = new Array<Settled<LintOutput>>(files.length);
        for (const [set, indexes] of batches) {
          const { results } = await lintBatch(set, indexes.map((i) => files[i]));
          results.forEach((r, k) => (out[indexes[k]] = r instanceof Error ? r : { diagnostics: r }));
        }
        return out;
      },
      // Its napi path is loaded with the instance (diagnose.ts), the parsers on first use.
      warm: () => true,
      async prewarm() {
        const { ensureLanguages } = await import("./napi.ts");
        await ensureLanguages();
      },
      async prepare(settings) {
        if (typeof (settings.configDir ?? settings.tool.configDir) !== "string") return;
        // What a batch's first process needs: its module, the rule set as the command line takes
        // it, the parser libraries it names, and where the command line is.
        const [, set, { cliRuleSet }, { parserFiles }, { astGrepExecutable }] = await Promise.all([
          import("./batch.ts"),
          ruleSetFor(settings),
          import("./_cli_config.ts"),
          import("./languages.ts"),
          import("./_cli_bin.ts"),
        ]);
        cliRuleSet(set);
        await Promise.all([parserFiles(), astGrepExecutable()]);
      },
      startLintMany(refs, settings) {
        const configDir = settings.configDir ?? settings.tool.configDir;
        // Without a configDir each file's directory may name another rule set: no early start.
        if (typeof configDir !== "string") return { finish: (files) => instance.lintMany!(files, settings) };
        // Files offered before the batch exists wait here.
        let batch: StartedRulesBatch | undefined;
        let queued: SourceFile[] = [];
        const started = Promise.all([import("./batch.ts"), ruleSetFor(settings)])
          .then(([{ startBatch }, set]) => {
            batch = startBatch(set, refs);
            for (const file of queued) batch.offer(file);
            queued = [];
            return batch;
          });
        started.catch(() => {}); // finish() reports it
        return {
          async finish(files) {
            const { results } = await (await started).finish(files);
            return results.map((r) => r instanceof Error ? r : { diagnostics: r });
          },
          ready: started.then((batch) => batch.ready, () => {}),
          offer(file) {
            if (batch) batch.offer(file);
            else queued.push(file);
          },
        };
      },
    };
    return instance;
  },
};

/**
 * The napi binding's native module for this platform (best effort; empty when
 * not found): in the platform package beside `@ast-grep/napi` (found without
 * loading Node's module resolver, which costs ~20 ms on every run's identity).
 */
function nativeBinding(): string[] {
  try {
    const arch = Deno.build.arch === "aarch64" ? "arm64" : "x64";
    const os = Deno.build.os === "windows" ? "win32" : Deno.build.os;
    const suffix = os === "linux" ? `-${Deno.build.env === "musl" ? "musl" : "gnu"}` : os === "win32" ? "-msvc" : "";
    const pkg = fileURLToPath(new URL(`../napi-${os}-${arch}${suffix}/`, import.meta.resolve("@ast-grep/napi")));
    const file = [...Deno.readDirSync(pkg)].find((e) => e.name.endsWith(".node"));
    return file ? [join(pkg, file.name)] : [];
  } catch {
    return [];
  }
}

/**
 * The ast-grep command line's platform package manifest (best effort; empty when
 * not installed). It names the pinned version, which fixes the binary; the
 * 55 MB binary itself is not hashed into the digest.
 */
async function cliManifest(): Promise<string[]> {
  try {
    const { binaryUrl } = await import("./_cli_bin.ts");
    const url = binaryUrl();
    if (!url) return [];
    await Deno.stat(url);
    const manifest = new URL("package.json", url);
    await Deno.stat(manifest);
    return [manifest.href];
  } catch {
    return [];
  }
}
