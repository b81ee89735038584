/**
 * The ruff engine's parity tests' common steps: a parity fixture copied as a repository of its own, and ruff's
 * findings of `poly lint` there as lines to compare with `ruff check`'s, recorded in each test.
 *
 * @module
 */
import { join } from "node:path";
import type { Span } from "../../../lib/report/schema.ts";
import { tempDir } from "../../_helpers/temp.ts";
import { copyDir, runPoly } from "../../_helpers/cli.ts";

/** A copy of tests/engines/testdata/parity/`name` (its README left out) as a repository of its own. */
export async function parityCopy(name: string): Promise<string> {
  const dir = await tempDir({ prefix: `poly-${name}-` });
  await copyDir(join(import.meta.dirname!, "../testdata/parity", name), dir);
  await Deno.remove(join(dir, "README.md"));
  await Deno.mkdir(join(dir, ".git"));
  return dir;
}

/**
 * ruff's findings of `poly lint` in `dir`, sorted, as `path:line:col code title` lines; with `ends`, the span's end
 * too (`path:line:col-line:col ...`), and with `fixes`, each fix's replacements after ` | `.
 */
export async function ruffFindings(dir: string, show: { ends?: boolean; fixes?: boolean } = {}): Promise<string[]> {
  const run = await runPoly(["lint", "--no-workspace", "--format", "json", "."], { cwd: dir });
  const doc = JSON.parse(run.stdout) as {
    results: {
      path: string;
      diagnostics?: { engine: string; code: string; title: string; span: Span; fix?: { replacement: string }[] }[];
    }[];
  };
  return doc.results.flatMap((r) =>
    (r.diagnostics ?? []).filter((d) => d.engine === "ruff").map((d) => {
      const end = show.ends ? `-${d.span.end_line}:${d.span.end_col}` : "";
      const fix = show.fixes && d.fix ? ` | ${d.fix.map((f) => f.replacement).join()}` : "";
      return `${r.path}:${d.span.start_line}:${d.span.start_col}${end} ${d.code} ${d.title}${fix}`;
    })
  ).sort();
}
