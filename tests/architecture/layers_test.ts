/**
 * The layers of docs/architecture.md, checked on every import of every `.ts` and
 * `.tsx` file (static imports, re-exports, `import()` and `typeof import()`, read
 * with ast-grep's TypeScript parser, so comments and strings are never taken for
 * imports):
 *
 * - the library (`lib/` outside `lib/cli/`) never imports an edge: `tools/` (the
 *   MCP tools and server), `tui/` (the dashboard), `lib/cli/` (the command line)
 *   or `main.ts`; only the command line (`poly dash`) imports the dashboard, and
 *   the other edges never import the command line;
 * - no file of the program imports another area's private module (a file whose
 *   name starts with `_`): such a module belongs to its area — `lib/<area>/` at
 *   any depth, or `tools/`, `tui/`, `scripts/` — and the others go through a
 *   public module. Tests are white-box and may import any module they test.
 *
 * And every file and folder name in the repository can be checked out on
 * Windows: none is a reserved device name, and none differs from another only
 * by case.
 */
import { ok } from "node:assert/strict";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { importsIn } from "../_helpers/imports.ts";

const REPO = fileURLToPath(new URL("../../", import.meta.url));

/** Folders never scanned: dependencies, sample repositories and test data. */
const SKIP = new Set(["node_modules", ".git", "fixtures", "testdata", "golden", "dist"]);

/**
 * Private modules imported from outside their area that stay for now, each with
 * its reason. A line here that no import needs any more fails the test: delete it.
 */
const ALLOWED_PRIVATE: Record<string, string> = {};

/** One import: the importing file and the imported one, repository-relative. */
interface Edge {
  from: string;
  to: string;
}

/** Every `.ts` and `.tsx` file of the repository, repository-relative. */
function sourceFiles(dir = REPO): string[] {
  const out: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory) out.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(entry.name)) out.push(relative(REPO, path));
  }
  return out.sort();
}

/** The relative specifiers `file` imports, resolved to repository-relative paths. */
function importsOf(file: string): string[] {
  return importsIn(Deno.readTextFileSync(join(REPO, file)), file.endsWith(".tsx"))
    .map((i) => i.specifier)
    .filter((s) => s.startsWith("./") || s.startsWith("../"))
    .map((s) => normalize(join(dirname(file), s)));
}

/** Every import between the repository's own files. */
function edges(): Edge[] {
  return sourceFiles().flatMap((from) => importsOf(from).map((to) => ({ from, to })));
}

const EDGES = edges();
const show = (e: Edge) => `${e.from} -> ${e.to}`;

/** Fails with `why` and every offending line when `found` is not empty. */
function none(found: string[], why: string): void {
  ok(found.length === 0, `${why}:\n  ${found.join("\n  ")}`);
}
const under = (path: string, ...dirs: string[]) => dirs.some((d) => path.startsWith(d));
const isLibrary = (path: string) => path.startsWith("lib/") && !path.startsWith("lib/cli/");

/** The area a private module belongs to: `lib/<area>`, or the top-level folder. */
function areaOf(path: string): string {
  const parts = path.split("/");
  return parts[0] === "lib" ? parts.slice(0, 2).join("/") : parts[0];
}

Deno.test("the scan reads every import: static, re-export, import() and typeof import()", () => {
  ok(EDGES.length > 1000, `${EDGES.length} imports`);
  const main = EDGES.filter((e) => e.from === "main.ts").map((e) => e.to);
  ok(main.includes("lib/cli/program.ts"), main.join(", "));
  // A lazy import() (lib/cli/main.ts loads each command's module with one).
  ok(EDGES.some((e) => e.from === "lib/cli/main.ts" && e.to === "lib/cli/commands/mod.ts"));
  ok(EDGES.some((e) => e.from === "tools/mod.ts" && e.to === "lib/run/mod.ts"));
});

Deno.test("the library (lib/ outside lib/cli/) never imports tools/, tui/, lib/cli/ or main.ts", () => {
  const bad = EDGES.filter((e) =>
    isLibrary(e.from) && (under(e.to, "tools/", "tui/", "lib/cli/") || e.to === "main.ts")
  );
  none(bad.map(show), "an operation the edges share belongs in lib/; pass an edge's piece in as a parameter");
});

Deno.test("only the command line (poly dash) imports the dashboard from lib/", () => {
  const bad = EDGES.filter((e) => e.from.startsWith("lib/") && e.to.startsWith("tui/"))
    .filter((e) => e.from !== "lib/cli/commands/dash.ts");
  none(bad.map(show), "the dashboard is an edge: the library never imports it");
});

Deno.test("the other edges (tools/, tui/) never import the command line", () => {
  const bad = EDGES.filter((e) =>
    under(e.from, "tools/", "tui/") && (e.to.startsWith("lib/cli/") || e.to === "main.ts")
  );
  none(bad.map(show), "what two edges share is an operation: it belongs in lib/");
});

Deno.test("no file of the program imports another area's private module", () => {
  const crossing = EDGES.filter((e) => !e.from.startsWith("tests/"))
    .filter((e) => e.to.split("/").at(-1)!.startsWith("_") && areaOf(e.from) !== areaOf(e.to))
    .map(show);
  none(
    crossing.filter((e) => !(e in ALLOWED_PRIVATE)),
    "import a public module of that area (move the shared function there), or justify it in ALLOWED_PRIVATE",
  );
  none(
    Object.keys(ALLOWED_PRIVATE).filter((e) => !crossing.includes(e)),
    "ALLOWED_PRIVATE entries no import needs: delete them",
  );
});

/** Every path git checks out (tracked, or new and not ignored), and every folder on the way. */
function checkedOut(): string[] {
  const out = new Deno.Command("git", {
    args: ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    cwd: REPO,
    stdout: "piped",
  }).outputSync();
  ok(out.success, "git ls-files");
  const paths = new Set<string>();
  for (const file of new TextDecoder().decode(out.stdout).split("\0").filter(Boolean)) {
    const parts = file.split("/");
    for (let i = 1; i <= parts.length; i++) paths.add(parts.slice(0, i).join("/"));
  }
  return [...paths].sort();
}

/** Windows device names: reserved with any extension (`aux.ts` cannot be checked out there). */
const RESERVED = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])$/i;

/** Whether a file or folder name is a Windows device name. */
function reservedOnWindows(name: string): boolean {
  return RESERVED.test(name.split(".")[0].trimEnd());
}

Deno.test("reservedOnWindows() knows the device names, with any extension and in any case", () => {
  for (const name of ["AUX", "aux.ts", "Con.tar.gz", "nul", "COM1.txt", "lpt9", "prn.md"]) {
    ok(reservedOnWindows(name), name);
  }
  for (const name of ["auxiliary.ts", "com10", "lpt0", "console.ts", "_aux.ts", "null.ts"]) {
    ok(!reservedOnWindows(name), name);
  }
});

Deno.test("no file or folder name is reserved on Windows, and none differs from another only by case", () => {
  const paths = checkedOut();
  ok(paths.includes("lib/cli/main.ts"), `${paths.length} paths`);
  none(paths.filter((p) => reservedOnWindows(p.split("/").at(-1)!)), "reserved on Windows: rename it");
  const seen = new Map<string, string>();
  const clashes: string[] = [];
  for (const path of paths) {
    const other = seen.get(path.toLowerCase());
    if (other !== undefined) clashes.push(`${other} and ${path}`);
    seen.set(path.toLowerCase(), path);
  }
  none(clashes, "differ only by case (one overwrites the other on Windows and macOS)");
});
