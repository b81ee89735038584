/**
 * The program `node` runs for the eslint engine (inside bubblewrap: lib/engines/eslint/mod.ts), as one ES module
 * given with `--input-type=module -e`. It reads `{ root, fix, files: [{ path, text }] }` on stdin, loads the ESLint
 * the repository has installed (resolved from `root`, the folder of its configuration, as `npx eslint` run there would),
 * picks flat or legacy configuration as that ESLint's own command line would (`loadESLint`, where it has one), and
 * lints each text under its path (`lintText`: the text poly read, not the file again), fixed too when `fix`. It writes
 * `{ version, results }` on stdout, one result per file: ESLint's `messages` (and its `output` when fixing), or the
 * first line of what went wrong; `{ missing }` when no ESLint can be resolved from `root`.
 *
 * @module
 */

/** The runner's source. */
export const RUNNER = String.raw`
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

const { root, fix, files } = JSON.parse(readFileSync(0, "utf8"));
const require = createRequire(join(root, "package.json"));
let entry;
try {
  entry = require.resolve("eslint");
} catch (e) {
  process.stdout.write(JSON.stringify({ missing: String(e && e.message || e).split("\n")[0] }));
  process.exit(0);
}
let version = "unknown";
for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
  try {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    if (pkg.name === "eslint") { version = pkg.version; break; }
  } catch {}
}
const mod = await import(pathToFileURL(entry).href);
const api = mod.default && !mod.ESLint ? mod.default : mod;
const first = (e) => String(e && e.message || e).split("\n")[0];
let linters;
try {
  const Linter = api.loadESLint ? await api.loadESLint({ cwd: root }) : api.ESLint;
  linters = { plain: new Linter({ cwd: root }), fixing: fix ? new Linter({ cwd: root, fix: true }) : undefined };
} catch (e) {
  process.stdout.write(JSON.stringify({ version, failed: first(e) }));
  process.exit(0);
}
const results = [];
for (const f of files) {
  try {
    const [plain] = await linters.plain.lintText(f.text, { filePath: f.path, warnIgnored: true });
    const out = { messages: plain ? plain.messages : [] };
    if (linters.fixing) {
      const [fixed] = await linters.fixing.lintText(f.text, { filePath: f.path, warnIgnored: true });
      if (fixed && typeof fixed.output === "string") out.output = fixed.output;
      out.remaining = fixed ? fixed.messages.length : out.messages.length;
    }
    results.push(out);
  } catch (e) {
    results.push({ error: first(e) });
  }
}
process.stdout.write(JSON.stringify({ version, results }));
`;
