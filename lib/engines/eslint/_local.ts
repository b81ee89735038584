/**
 * The repository's own modules an ESLint configuration loads — a local plug-in's rules, a shared configuration kept in
 * the repository (`import rules from "./eslint-rules/index.js"`, `require("../config/eslint-base")`, a legacy
 * `extends: "./base.js"`) — found by the relative specifiers written in it, then in theirs. ESLint's findings depend on
 * them as much as on the configuration file, so their contents are part of the cached results' key (mod.ts): editing a
 * local rule makes the next run lint again, where ESLint's own `--cache` would answer from before the edit.
 *
 * Every string literal that starts with `./` or `../` and resolves as Node resolves a relative specifier (the path as
 * written, then with `.js`, `.mjs`, `.cjs`, `.ts`, `.mts`, `.cts` or `.json` added, then as a folder's `index`) to a
 * file in the repository outside `node_modules` counts, and a JavaScript or TypeScript one is read in turn. A literal
 * that names no file (a glob in `files`, a message) is passed over. Not seen: a module loaded by a computed name, and
 * one a package finds by convention (`eslint-plugin-local-rules`' `eslint-local-rules.js` is looked for by name).
 *
 * @module
 */
import { dirname, extname, join, relative, resolve, sep } from "node:path";
import { digestOf } from "../../cache/digest.ts";

/** Extensions Node tries after a relative specifier as written, and a folder's `index` with. */
const EXTENSIONS = [".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".json"];

/** Files read in turn for their own specifiers. */
const CODE = new Set([".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"]);

/** At most this many modules are followed (a configuration that reaches further is keyed by the first ones). */
const MAX_MODULES = 256;

/** A module larger than this is keyed but not read for specifiers (a bundled or generated file). */
const MAX_SCAN_BYTES = 1 << 20;

/** A quoted relative specifier: `"./x"`, `'../y/z.js'`, `` `./w` `` (without substitutions). */
const SPECIFIER = /(["'`])(\.{1,2}\/[^"'`$\n\\]*)\1/g;

/** What {@link localModules} found: the modules' paths and one digest of their contents. */
export interface LocalModules {
  paths: string[];
  /** SHA-256 over each module's path (relative to the repository) and content; undefined when there is none. */
  digest?: string;
}

/**
 * The repository's modules the configuration files `configs` load, directly or through each other (see the module
 * documentation), each read once; `repository` bounds them.
 */
export async function localModules(configs: readonly string[], repository: string): Promise<LocalModules> {
  const found = new Map<string, Uint8Array>();
  const queue: string[] = [];
  const scan = (from: string, text: string) => {
    for (const m of text.matchAll(SPECIFIER)) queue.push(resolve(dirname(from), m[2]));
  };
  for (const config of configs) {
    const bytes = await Deno.readFile(config).catch(() => undefined);
    if (bytes && bytes.length <= MAX_SCAN_BYTES) scan(config, new TextDecoder().decode(bytes));
    // eslint-plugin-local-rules finds its rules by name beside the configuration.
    queue.push(join(dirname(config), "eslint-local-rules"));
  }
  const inside = (path: string) => {
    const rel = relative(repository, path);
    return rel !== "" && !rel.startsWith("..") && !rel.split(sep).includes("node_modules");
  };
  for (let next = queue.shift(); next !== undefined && found.size < MAX_MODULES; next = queue.shift()) {
    if (!inside(next)) continue;
    const file = await resolveModule(next);
    if (file === undefined || found.has(file) || configs.includes(file)) continue;
    const bytes = await Deno.readFile(file).catch(() => undefined);
    if (!bytes) continue;
    found.set(file, bytes);
    if (CODE.has(extname(file)) && bytes.length <= MAX_SCAN_BYTES) scan(file, new TextDecoder().decode(bytes));
  }
  const paths = [...found.keys()].sort();
  if (paths.length === 0) return { paths };
  const lines = paths.map((path) => `${relative(repository, path)}\0${digestOf(found.get(path)!)}`);
  return { paths, digest: digestOf(new TextEncoder().encode(lines.join("\n"))) };
}

/** The file a relative specifier resolved to `path` names, as Node looks for it; undefined when none. */
async function resolveModule(path: string): Promise<string | undefined> {
  const candidates = [
    path,
    ...EXTENSIONS.map((ext) => path + ext),
    ...EXTENSIONS.map((ext) => join(path, "index" + ext)),
  ];
  for (const candidate of candidates) {
    const info = await Deno.stat(candidate).catch(() => undefined);
    if (info?.isFile) return candidate;
  }
  return undefined;
}
