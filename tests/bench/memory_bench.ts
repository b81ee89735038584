/**
 * Peak memory against repository size (issue 25, item 3): a cold
 * `poly lint --no-workspace` on the generated corpus (tests/bench/corpus.ts) at
 * ~20k and ~40k files, its peak resident set size from `/usr/bin/time` (the
 * largest process of the run: poly itself, its workers included, or a native
 * tool it started), and the ratio 40k/20k: memory is bounded by the work in
 * flight (a window of files, the workers' engines), so the ratio should stay
 * near 1. Figures only, no assertions.
 *
 * `deno run -P=test tests/bench/memory_bench.ts [--scale F] [--format json|sarif|human|github|toon] [--runs N]`
 *
 * `--scale 1` is 20,800 and 41,600 files; `--runs N` takes the median of N runs per size (the machine's other
 * load moves a single figure by tens of MB).
 *
 * @module
 */
import { largeCorpus } from "./corpus.ts";
import { median, ms, timeCommand } from "./_measure.ts";
import { polyCommand } from "../_helpers/cli.ts";
import { tempDir } from "../_helpers/temp.ts";

const args = [...Deno.args];
const option = (name: string, fallback: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const scale = Number(option("--scale", "1"));
const format = option("--format", "json");
const runs = Math.max(1, Number(option("--runs", "1")));

const poly = polyCommand();
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

/** Peak RSS (KiB) and wall time of cold runs over `dir`: the median of `runs`. */
async function measure(dir: string): Promise<{ kb: number; ms: number; code: number }> {
  const kbs: number[] = [];
  const times: number[] = [];
  let code = 0;
  for (let i = 0; i < runs; i++) {
    const home = await tempDir({ prefix: "poly-bench-home-" });
    const run = await timeCommand([...poly, "lint", "--no-workspace", "--format", format], {
      cwd: dir,
      env: { ...Deno.env.toObject(), NO_COLOR: "1", POLY_CACHE_HOME: home },
      measureMemory: true,
    });
    await Deno.remove(home, { recursive: true });
    if (run.maxRssKb === undefined) throw new Error(`no peak memory figure: is /usr/bin/time installed? ${run.stderr}`);
    kbs.push(run.maxRssKb);
    times.push(run.ms);
    code = run.code;
  }
  return { kb: median(kbs), ms: median(times), code };
}

const small = await largeCorpus("poly-bench-memory-", scale);
const large = await largeCorpus("poly-bench-memory-", 2 * scale);
try {
  const a = await measure(small.dir);
  console.log(`memory: ${small.files} files: peak RSS ${mb(a.kb)} (${ms(a.ms)}, exit ${a.code})`);
  const b = await measure(large.dir);
  console.log(`memory: ${large.files} files: peak RSS ${mb(b.kb)} (${ms(b.ms)}, exit ${b.code})`);
  console.log(
    `memory: ratio ${large.files}/${small.files} files ${(b.kb / a.kb).toFixed(2)} ` +
      `(--format ${format}, ${runs} run${runs === 1 ? "" : "s"} each; target: peak <= 800 MB, ratio near 1)`,
  );
} finally {
  await Deno.remove(small.dir, { recursive: true });
  await Deno.remove(large.dir, { recursive: true });
}
