/**
 * The program `node` runs for the eslint engine (inside bubblewrap: lib/engines/eslint/mod.ts), as one ES module
 * given as a `data:` URL. It reads `{ root, tool, fix, files: [{ path, text }] }` on stdin, loads the
 * ESLint the repository has installed (resolved from `root`, the folder of its configuration, as `npx eslint` run there
 * would) — or, for `tool` `"xo"`, `"standard"` or `"semistandard"`, the repository's package of that name — and lints
 * each text under its path (`lintText`: the text poly
 * read, not the file again), fixed too when `fix`. ESLint's configuration is picked flat or legacy as its own command
 * line would (`loadESLint`, where it has one); xo's API is the one its version has (xo 0.x: `xo.lintText(text,
 * { cwd, filePath })`; xo 1 and later: `new Xo({ cwd }).lintText(text, { filePath })`); standard-engine's resolves its
 * ESLint options (`resolveEslintConfig`). It writes `{ version, results }`
 * on stdout, one result per file: the `messages` (and the `output` when fixing; `ignored` where xo ignored the file,
 * which it says with no message), or the first line of what went wrong; `{ missing }` when the package cannot be
 * resolved from `root`.
 *
 * @module
 */

/** The runner's source. */
export const RUNNER = String.raw`
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

const { root, tool, fix, files } = JSON.parse(readFileSync(0, "utf8"));
const require = createRequire(join(root, "package.json"));
let entry;
try {
  entry = require.resolve(tool);
} catch (e) {
  process.stdout.write(JSON.stringify({ missing: String(e && e.message || e).split("\n")[0] }));
  process.exit(0);
}
let version = "unknown";
for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
  try {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    if (pkg.name === tool) { version = pkg.version; break; }
  } catch {}
}
const mod = await import(pathToFileURL(entry).href);
const first = (e) => String(e && e.message || e).split("\n")[0];
/** A linter: lint(text, filePath) gives its report for the file ({ messages, output?, ignored? }), or none. */
const eslintLinter = async (fixing) => {
  const api = mod.default && !mod.ESLint ? mod.default : mod;
  const Linter = api.loadESLint ? await api.loadESLint({ cwd: root }) : api.ESLint;
  const linter = new Linter({ cwd: root, fix: fixing });
  return async (text, filePath) => (await linter.lintText(text, { filePath, warnIgnored: true }))[0];
};
const xoLinter = async (fixing) => {
  const Xo = mod.default ?? mod;
  const one = (report) => report.results && report.results[0] && { ...report.results[0], ignored: report.isIgnored === true };
  if (typeof Xo === "function") {
    const xo = new Xo({ cwd: root, fix: fixing });
    return async (text, filePath) => one(await xo.lintText(text, { filePath, warnIgnored: true }));
  }
  return async (text, filePath) => one(await Xo.lintText(text, { cwd: root, filePath, fix: fixing, warnIgnored: true }));
};
// standard and semistandard (standard-engine): ESLint under the options the engine resolves for the folder (its
// package.json key, its default and .gitignore ignores), one ESLint for every file; an engine without
// resolveEslintConfig through its own lintText, which says nothing of an ignored file but gives no result for it.
const standardLinter = async (fixing) => {
  const engine = mod.default ?? mod;
  if (typeof engine.resolveEslintConfig === "function" && engine.eslint && engine.eslint.ESLint) {
    const options = engine.resolveEslintConfig({ cwd: root, fix: fixing });
    const linter = new engine.eslint.ESLint(options);
    // Its command line lints only files of its extensions (.js, .jsx, .mjs, .cjs and its package.json's): others,
    // a TypeScript declaration beside the code, it passes over.
    const extensions = Array.isArray(options.extensions) ? options.extensions : undefined;
    return async (text, filePath) =>
      extensions && !extensions.some((ext) => filePath.endsWith(ext))
        ? { messages: [], ignored: true }
        : (await linter.lintText(text, { filePath, warnIgnored: true }))[0];
  }
  return async (text, filePath) =>
    (await engine.lintText(text, { cwd: root, filename: filePath, fix: fixing }))[0] ?? { messages: [], ignored: true };
};
let linters;
try {
  const make = tool === "xo" ? xoLinter : tool === "eslint" ? eslintLinter : standardLinter;
  linters = { plain: await make(false), fixing: fix ? await make(true) : undefined };
} catch (e) {
  process.stdout.write(JSON.stringify({ version, failed: first(e) }));
  process.exit(0);
}
// xo 0.x lints files its way (lintFiles): the files of a TypeScript project share one generated tsconfig listing them
// all, where its lintText rewrites that tsconfig for each file, which the TypeScript program it has built already does
// not see. So the files whose text on disk is the text given, and whose paths are no glob, go through lintFiles; a
// file lintFiles leaves out, xo ignores.
const listed = new Map();
const Xo0 = tool === "xo" && typeof (mod.default ?? mod) !== "function" ? (mod.default ?? mod) : undefined;
if (Xo0 && typeof Xo0.lintFiles === "function") {
  const same = files.filter((f) => {
    if (/[*?[\]{}()!+@\\]/.test(f.path)) return false;
    try { return readFileSync(f.path, "utf8") === f.text; } catch { return false; }
  }).map((f) => f.path);
  // (An empty list would be every file of the project to lintFiles.)
  if (same.length > 0) try {
    for (const fixing of fix ? [false, true] : [false]) {
      const report = await Xo0.lintFiles(same, { cwd: root, fix: fixing });
      for (const r of report.results) listed.set(r.filePath + (fixing ? "\0fix" : ""), r);
    }
    for (const path of same) {
      if (!listed.has(path)) listed.set(path, { messages: [], ignored: true });
      if (fix && !listed.has(path + "\0fix")) listed.set(path + "\0fix", listed.get(path));
    }
  } catch {
    listed.clear(); // file by file below, each with its own error
  }
}
const results = [];
for (const f of files) {
  try {
    const plain = listed.get(f.path) ?? await linters.plain(f.text, f.path);
    const out = { messages: plain ? plain.messages : [] };
    if (plain && plain.ignored) out.ignored = true;
    if (linters.fixing) {
      const fixed = listed.get(f.path + "\0fix") ?? await linters.fixing(f.text, f.path);
      if (fixed && typeof fixed.output === "string") out.output = fixed.output;
      out.remaining = fixed ? fixed.messages.length : out.messages.length;
      // What is left in the fixed text: its findings, as a lint of the output would give them.
      if (fixed) out.fixedMessages = fixed.messages;
    }
    results.push(out);
  } catch (e) {
    results.push({ error: first(e) });
  }
}
process.stdout.write(JSON.stringify({ version, results }));
`;
