/**
 * What placing biome's native findings costs poly once a process has ended: `nativeFindings` (biome's lines and
 * columns to string indices) and `outcome` (poly's diagnostics, positions and rule pages) over a real tree's native
 * report, the first call (as a cold run meets it: once, in code V8 has not optimised yet) and the median of
 * further calls. A cold `poly lint` does this work after the last biome process it waits for, so it is part of
 * the run's tail. Prints figures; asserts nothing.
 *
 *   deno run -P=test tests/bench/biome_findings_bench.ts DIR
 *   POLY_ROOT=/path/to/other/checkout deno run -P=test tests/bench/biome_findings_bench.ts DIR   # another commit's code
 *
 * For a before/after, run it alternately from two checkouts (`git worktree add`); one process measures one first
 * call, so compare the first-call medians of several processes.
 *
 * @module
 */
import { join, resolve } from "node:path";
import { median, ms } from "./_measure.ts";
import { REPO } from "../_helpers/cli.ts";
import type { EngineSettings, SourceFile } from "../../lib/engines/types.ts";
import type { JsonDiagnostic } from "../../lib/engines/biome/_native.ts";

const dir = resolve(Deno.args[0] ?? ".");
const root = Deno.env.get("POLY_ROOT") ?? REPO;
const runs = Number(Deno.env.get("RUNS") ?? 15);
const native = await import(join(root, "lib/engines/biome/_native.ts"));
const { outcome } = await import(join(root, "lib/engines/biome/_shared.ts"));

const out = await new Deno.Command(join(REPO, "node_modules", ".bin", "biome"), {
  args: ["lint", "--reporter=json", "--max-diagnostics=none", "."],
  cwd: dir,
  stdout: "piped",
  stderr: "null",
}).output();
const diagnostics: JsonDiagnostic[] = native.parseReport(new TextDecoder().decode(out.stdout));
const report = new Map<string, JsonDiagnostic[]>();
for (const d of diagnostics) {
  if (!d.location) continue;
  const path = native.key(join(dir, d.location.path));
  report.get(path)?.push(d) ?? report.set(path, [d]);
}
const files: SourceFile[] = [...report.keys()].map((path) => ({
  path,
  relPath: path.slice(dir.length + 1),
  language: "typescript",
  text: Deno.readTextFileSync(path),
}));
const settings: EngineSettings = {
  defaults: { line_length: 120, line_ending: "lf", final_newline: true, trim_trailing_whitespace: true },
  tool: {},
};

const times: number[] = [];
let kept = 0;
for (let r = 0; r < runs; r++) {
  const start = performance.now();
  const found = native.nativeFindings(report, files);
  kept = 0;
  for (const [i, file] of files.entries()) {
    if (!found[i]) continue;
    try {
      kept += outcome(file, found[i], settings).diagnostics.length;
    } catch {
      // a file biome could not parse: its parse errors are thrown as a syntax error
    }
  }
  times.push(performance.now() - start);
}
console.log(
  `${dir} (code from ${root}): ${files.length} files with findings, ${diagnostics.length} diagnostics (${kept} kept); ` +
    `first call ${ms(times[0])}` +
    (times.length > 1 ? `, median of the next ${times.length - 1} ${ms(median(times.slice(1)))}` : ""),
);
