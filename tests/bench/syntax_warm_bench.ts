/**
 * Warm `poly lint` with syntax-error fixtures present versus absent (issue 21):
 * a syntax error is a finding cached like any other, so a warm run of a
 * repository with deliberately broken test fixtures should cost what a run
 * without them costs (target: within 10%), instead of reloading the engines
 * that report them on every run. A third repository with 12 valid files of the
 * same kinds in their place tells the cost of the extra files from that of their
 * errors. Prints the medians and the ratios; asserts nothing.
 *
 *   deno run -A tests/bench/syntax_warm_bench.ts          # 400 files, 12 broken fixtures
 *   RUNS=15 FILES=2000 deno run -A tests/bench/syntax_warm_bench.ts
 *
 * @module
 */
import { join } from "node:path";
import { median, timeCommand } from "./_measure.ts";
import { polyCommand } from "../_helpers/cli.ts";
import { tempDir } from "../_helpers/temp.ts";

const RUNS = Number(Deno.env.get("RUNS") ?? 9);
const FILES = Number(Deno.env.get("FILES") ?? 400);

/** Broken fixtures of the kinds real repositories keep (parser tests), by extension. */
const BROKEN: Record<string, string> = {
  ts: "export const = ;\n",
  js: "function (\n",
  json: '{"a": 1,,}\n',
  css: "a { color: red;; \n",
  py: "def broken(:\n    pass\n",
  yaml: "key: [\n",
};

/** The same kinds of files, valid: the control that tells the cost of the extra files from that of their errors. */
const VALID: Record<string, string> = {
  ts: "export const a = 1;\n",
  js: "export function f() {}\n",
  json: '{ "a": 1 }\n',
  css: "a {\n  color: red;\n}\n",
  py: "def fine():\n    pass\n",
  yaml: "key: [1]\n",
};

/** A repository of `FILES` clean files (TypeScript, JavaScript, Python), plus 12 fixtures of `fixtures` when given. */
async function repository(fixtures?: Record<string, string>): Promise<string> {
  const dir = await tempDir({ prefix: "poly-syntax-bench-" });
  await Deno.mkdir(join(dir, ".git"));
  await Deno.mkdir(join(dir, "src"));
  await Deno.mkdir(join(dir, "tests", "fixtures"), { recursive: true });
  for (let i = 0; i < FILES; i++) {
    const kind = i % 3;
    const name = kind === 0 ? `m${i}.ts` : kind === 1 ? `m${i}.js` : `m${i}.py`;
    const text = kind === 2
      ? `def f${i}(x):\n    return x + ${i}\n`
      : `export function f${i}(x) {\n  return x + ${i};\n}\n`;
    await Deno.writeTextFile(join(dir, "src", name), text);
  }
  if (fixtures) {
    let n = 0;
    for (let round = 0; round < 2; round++) {
      for (const [ext, text] of Object.entries(fixtures)) {
        await Deno.writeTextFile(join(dir, "tests", "fixtures", `fixture${n++}.${ext}`), text);
      }
    }
  }
  return dir;
}

function polyIn(dir: string) {
  const env = { POLY_CACHE_HOME: join(dir, ".git", "cache"), POLY_STATE_HOME: join(dir, ".git", "state") };
  const cmd = [...polyCommand(), "lint", "--no-workspace", "--format", "json"];
  return () => timeCommand(cmd, { cwd: dir, env });
}

/** Warm medians of the repositories, their runs interleaved so a busy machine weighs on each alike. */
async function warmMedians(dirs: string[]): Promise<{ ms: number; code: number }[]> {
  const runs = dirs.map(polyIn);
  const codes: number[] = [];
  for (const run of runs) codes.push((await run()).code); // fills the caches
  const times: number[][] = runs.map(() => []);
  for (let i = 0; i < RUNS; i++) {
    for (const [k, run] of runs.entries()) times[k].push((await run()).ms);
  }
  return times.map((t, k) => ({ ms: median(t), code: codes[k] }));
}

const absent = await repository();
const valid = await repository(VALID);
const present = await repository(BROKEN);
try {
  const [without, control, withBroken] = await warmMedians([absent, valid, present]);
  console.log(`files: ${FILES} clean; runs: ${RUNS} warm (median)`);
  console.log(`warm, syntax-error fixtures absent:  ${without.ms.toFixed(0)} ms (exit ${without.code})`);
  console.log(`warm, 12 valid files in their place: ${control.ms.toFixed(0)} ms (exit ${control.code})`);
  console.log(`warm, 12 syntax-error fixtures:      ${withBroken.ms.toFixed(0)} ms (exit ${withBroken.code})`);
  console.log(`ratio present/absent: ${(withBroken.ms / without.ms).toFixed(2)} (target: at most 1.10)`);
  console.log(
    `ratio present/valid:  ${(withBroken.ms / control.ms).toFixed(2)} (what the syntax errors themselves cost)`,
  );
} finally {
  for (const dir of [absent, valid, present]) await Deno.remove(dir, { recursive: true }).catch(() => {});
}
