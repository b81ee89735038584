/**
 * Formatting Markdown code blocks with poly's own formatters. dprint's Markdown
 * plugin hands each fenced block to a synchronous host callback as
 * `file.<tag>`; poly's engines may be asynchronous, so the Markdown engine first
 * collects the blocks (a dry pass), formats them here, then formats the document
 * again answering the callback from these results. Blocks of unknown languages,
 * and blocks a formatter rejects (a syntax error in an example), are left alone.
 *
 * @module
 */
import { STYLE_LANGUAGES, styleOptionsFor, styleToBiomeOf } from "../../config/native/prettier.ts";
import type { NativeEngineConfig } from "../../config/native/types.ts";
import type { EngineSettings, EngineSpec, Language, Settled, SourceFile } from "../types.ts";

/** Fence tag → language and the file extension its formatter expects. */
export const FENCE_LANGUAGES: Record<string, { language: Language; ext: string }> = {
  go: { language: "go", ext: "go" },
  golang: { language: "go", ext: "go" },
  sh: { language: "shell", ext: "sh" },
  shell: { language: "shell", ext: "sh" },
  bash: { language: "shell", ext: "bash" },
  toml: { language: "toml", ext: "toml" },
  yaml: { language: "yaml", ext: "yaml" },
  yml: { language: "yaml", ext: "yaml" },
  json: { language: "json", ext: "json" },
  jsonc: { language: "json", ext: "jsonc" },
  js: { language: "javascript", ext: "js" },
  javascript: { language: "javascript", ext: "js" },
  mjs: { language: "javascript", ext: "mjs" },
  cjs: { language: "javascript", ext: "cjs" },
  jsx: { language: "javascript", ext: "jsx" },
  ts: { language: "typescript", ext: "ts" },
  typescript: { language: "typescript", ext: "ts" },
  tsx: { language: "typescript", ext: "tsx" },
  mts: { language: "typescript", ext: "mts" },
  css: { language: "css", ext: "css" },
  graphql: { language: "graphql", ext: "graphql" },
  gql: { language: "graphql", ext: "graphql" },
  python: { language: "python", ext: "py" },
  py: { language: "python", ext: "py" },
  sql: { language: "sql", ext: "sql" },
  lua: { language: "lua", ext: "lua" },
  php: { language: "php", ext: "php" },
  html: { language: "html", ext: "html" },
  vue: { language: "vue", ext: "vue" },
  svelte: { language: "svelte", ext: "svelte" },
  c: { language: "c", ext: "c" },
  cpp: { language: "cpp", ext: "cpp" },
  "c++": { language: "cpp", ext: "cpp" },
  java: { language: "java", ext: "java" },
  proto: { language: "protobuf", ext: "proto" },
  protobuf: { language: "protobuf", ext: "proto" },
  rust: { language: "rust", ext: "rs" },
  rs: { language: "rust", ext: "rs" },
  dockerfile: { language: "dockerfile", ext: "Dockerfile" },
};

/** The languages of the code blocks `deno fmt` formats itself (with dprint's plugins, as poly does under it). */
const DENO_FENCES: ReadonlySet<Language> = new Set(["javascript", "typescript", "json"]);

/** One request dprint made to the host formatter. */
export interface FenceRequest {
  filePath: string;
  fileText: string;
  lineWidth?: number;
}

/** Key of a request in the results map. */
export function fenceKey(r: FenceRequest): string {
  return `${r.filePath}\u0000${r.lineWidth ?? ""}\u0000${r.fileText}`;
}

/**
 * Formats every collected block whose tag poly knows, with the first enabled formatter for its language (the
 * registry's order), using the Markdown file's `[defaults]`: for each of `files` (a Markdown file and the blocks dprint
 * asked its host to format), its blocks' formatted text by {@link fenceKey}; blocks left alone are absent. The blocks
 * one formatter takes under the same settings go to it together, those of every file (`formatMany`: one native
 * process for all of them, where biome's module would be loaded for them), unless its in-process path is loaded
 * already (a resident poly).
 */
export async function formatFences(
  files: readonly { markdown: SourceFile; requests: readonly FenceRequest[] }[],
  settings: EngineSettings,
): Promise<Map<string, string>[]> {
  const out = files.map(() => new Map<string, string>());
  if (files.every((f) => f.requests.length === 0)) return out;
  const { engineById, formatEnginesFor, loadEngine } = await import("../registry.ts");
  /** The blocks of each formatter and settings, with the file and key of each block's request. */
  const groups = new Map<
    string,
    { spec: EngineSpec; settings: EngineSettings; blocks: SourceFile[]; keys: [number, string][] }
  >();
  for (const [i, { markdown, requests }] of files.entries()) {
    const dir = markdown.path.slice(0, markdown.path.lastIndexOf("/") + 1);
    for (const r of requests) {
      const tag = r.filePath.slice(r.filePath.lastIndexOf(".") + 1).toLowerCase();
      const known = FENCE_LANGUAGES[tag];
      if (!known || known.language === "markdown") continue;
      // Under `deno.json`, `deno fmt` formats JavaScript, TypeScript and JSON blocks with its own plugins (dprint's);
      // under prettier's options, only the languages prettier formats: each leaves a shell or Go block as written.
      const deno = settings.native?.deno;
      if (deno && !DENO_FENCES.has(known.language)) continue;
      if (settings.native && !deno && !STYLE_LANGUAGES.has(known.language)) continue;
      const spec = deno ? engineById("dprint") : formatEnginesFor(known.language).find((e) => e.defaultEnabled);
      if (!spec) continue;
      const blockSettings: EngineSettings = {
        defaults: {
          ...settings.defaults,
          line_length: r.lineWidth ?? settings.defaults.line_length,
          line_ending: "lf",
          final_newline: true,
        },
        tool: {},
      };
      if (deno) {
        // The block's width as dprint leaves it (a block in a list is narrower), Deno's settings otherwise.
        const options = { ...settings.native!.options, ...(r.lineWidth ? { lineWidth: r.lineWidth } : {}) };
        blockSettings.native = { ...settings.native!, options };
      } else if (settings.native) {
        try {
          blockSettings.native = blockStyle(settings.native, markdown.path, spec.id, r.lineWidth);
        } catch {
          continue; // options its formatter cannot take: the block is left as written
        }
      }
      const key = `${spec.id}\0${JSON.stringify(blockSettings)}`;
      const group = groups.get(key) ??
        groups.set(key, { spec, settings: blockSettings, blocks: [], keys: [] }).get(key)!;
      // Each block of a group by a name of its own: a batch takes a path once.
      const n = group.blocks.length;
      const name = known.ext === "Dockerfile" ? "Dockerfile" : `code-block${n ? `-${n}` : ""}.${known.ext}`;
      group.blocks.push({ path: dir + name, relPath: name, language: known.language, text: r.fileText + "\n" });
      group.keys.push([i, fenceKey(r)]);
    }
  }
  for (const { spec, settings: blockSettings, blocks, keys } of groups.values()) {
    let engine;
    try {
      engine = await loadEngine(spec);
    } catch {
      continue; // the formatter does not load: its blocks are left as written
    }
    if (!engine.format) continue;
    let results: Settled<string>[] = [];
    if (engine.formatMany && !engine.warm?.()) results = await engine.formatMany(blocks, blockSettings).catch(() => []);
    else {
      for (const block of blocks) {
        try {
          results.push(await engine.format(block, blockSettings));
        } catch (e) {
          results.push(e instanceof Error ? e : new Error(String(e)));
        }
      }
    }
    // A block its formatter rejects is left as written.
    results.forEach((formatted, k) => {
      if (typeof formatted === "string") out[keys[k][0]].set(keys[k][1], formatted.replace(/\n+$/, ""));
    });
  }
  return out;
}

/**
 * The configuration of a block's formatter under the Markdown file's prettier/oxfmt options: prettier formats embedded
 * code with the Markdown file's own options (its `overrides` for that file, not for the block's language), at the
 * width dprint leaves the block; biome takes them mapped onto its own configuration, the others as they are.
 */
function blockStyle(
  native: NativeEngineConfig,
  markdownPath: string,
  engine: string,
  lineWidth: number | undefined,
): NativeEngineConfig {
  const options = { ...styleOptionsFor(native, markdownPath), ...(lineWidth ? { printWidth: lineWidth } : {}) };
  if (engine !== "biome") return { ...native, options };
  return { ...native, options: styleToBiomeOf(native.style?.tool ?? "prettier", options, native.files[0]?.path ?? "") };
}
