/**
 * A new worktree of a repository (`git worktree add`, as a coding agent makes one per task), its first `poly lint`:
 * with the cache home where the main checkout ran (a worktree shares its main checkout's result cache) against a home
 * where poly has run as much but never on this repository (every memo, no result of it: what a cold run meets).
 * Interleaved pairs, medians and min–max; figures only, no assertions.
 *
 *   deno run -P=test tests/bench/worktree.ts [--runs N] DIR
 *
 * DIR is cloned (`git clone --local`) into a temporary folder, never written; each run adds a worktree of its own.
 *
 * @module
 */
import { join, resolve } from "node:path";
import { median, ms, spread, timeCommand } from "./_measure.ts";
import { polyCommand } from "../_helpers/cli.ts";
import { tempDir } from "../_helpers/temp.ts";

const args = [...Deno.args];
const runsAt = args.indexOf("--runs");
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 5;
const dir = args.filter((a, i) => !a.startsWith("--") && args[i - 1] !== "--runs")[0];
if (!dir) throw new Error("Give a repository: worktree.ts [--runs N] DIR");

async function git(cwd: string, ...rest: string[]): Promise<void> {
  const out = await new Deno.Command("git", { args: rest, cwd, stdout: "null", stderr: "piped" }).output();
  if (!out.success) throw new Error(`git ${rest.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
}

/** A copy of the cache home `home`. */
async function copyOf(home: string): Promise<string> {
  const copy = await tempDir({ prefix: "poly-bench-worktree-home-" });
  const out = await new Deno.Command("cp", { args: ["-a", `${home}/.`, copy] }).output();
  if (!out.success) throw new Error(`cp ${home}: ${new TextDecoder().decode(out.stderr)}`);
  return copy;
}

const poly = polyCommand();
const lint = async (cwd: string, home: string) => {
  const run = await timeCommand([...poly, "lint", "--format", "json", "--no-workspace"], {
    cwd,
    env: { ...Deno.env.toObject(), NO_COLOR: "1", POLY_CACHE_HOME: home },
  });
  const summary = run.stdout.startsWith("{") ? JSON.parse(run.stdout).summary : undefined;
  return { ms: run.ms, cache: summary?.cache as { hits: number; misses: number } | undefined };
};

const root = await tempDir({ prefix: "poly-bench-worktree-" });
const main = join(root, "main");
const elsewhere = join(root, "elsewhere");
await git(root, "clone", "-q", "--local", resolve(dir), main);
await git(root, "clone", "-q", "--local", resolve(dir), elsewhere);
// The shared home: the main checkout has run. The other: as much run, on another clone (another repository to poly).
const shared = await tempDir({ prefix: "poly-bench-worktree-home-" });
const other = await tempDir({ prefix: "poly-bench-worktree-home-" });
const filled = await lint(main, shared);
await lint(elsewhere, other);
console.log(`${dir}: main checkout ${JSON.stringify(filled.cache)} in ${ms(filled.ms)}; ${runs} new worktrees`);

const warm: number[] = [];
const cold: number[] = [];
for (let i = 0; i < runs; i++) {
  for (const side of i % 2 === 0 ? ["shared", "other"] : ["other", "shared"]) {
    const worktree = join(root, `${side}-${i}`);
    await git(main, "worktree", "add", "-q", "--detach", worktree);
    // Each run's copy of a home: what one run stores (the other's results, the worktree's) is not the next run's.
    const run = await lint(worktree, await copyOf(side === "shared" ? shared : other));
    (side === "shared" ? warm : cold).push(run.ms);
    console.log(`  run ${i + 1}, ${side} home: ${JSON.stringify(run.cache)} in ${ms(run.ms)}`);
  }
}
console.log(
  `a new worktree's first poly lint: with its main checkout's home ${spread(warm)}, with a home new to the repository ${
    spread(cold)
  }: ${(median(warm) / median(cold)).toFixed(3)}×`,
);
await Deno.remove(root, { recursive: true });
