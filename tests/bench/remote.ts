/**
 * Beyond one machine (issue 25): prints
 * - the second runner's cold run (fresh local cache) with a warm remote cache,
 *   as a fraction of the first runner's cold run (target <= 15%), against the
 *   real `turborepo-remote-cache` server on a loopback port;
 * - `--shard 1/2` and `--shard 2/2` run side by side (wall time of the pair)
 *   against the unsharded run, both cold;
 * - peak resident memory of a cold run at ~20k and ~40k files.
 * On a generated corpus in /tmp (tests/bench/corpus.ts: 20,800 files; 41,600
 * for the memory figure). Figures only, no assertions.
 *
 * With `--repo DIR`, on a real repository instead, as people and runners share a
 * remote cache: one copy of DIR fills it, then a copy at another path (a
 * colleague's clone, a runner's checkout) runs with an empty cache home, with the
 * remote cache and without, alternating, `--runs N` times (each with a team of
 * its own); prints the hits and the medians.
 *
 * `deno run -P=test tests/bench/remote.ts [--scale F] [--no-memory]`
 * `deno run -P=test tests/bench/remote.ts --repo DIR [--runs N]`
 *
 * @module
 */
import { largeCorpus } from "./corpus.ts";
import { basename, join, resolve } from "node:path";
import { median, ms, spread, timeCommand } from "./_measure.ts";
import { copyTree } from "./real.ts";
import { polyCommand } from "../_helpers/cli.ts";
import { serverCli, startServer } from "../cache/_remote_server.ts";
import { tempDir } from "../_helpers/temp.ts";

const args = [...Deno.args];
const scaleAt = args.indexOf("--scale");
const scale = scaleAt >= 0 ? Number(args[scaleAt + 1]) : 1;
const memory = !args.includes("--no-memory");

const poly = polyCommand();
const home = () => tempDir({ prefix: "poly-bench-home-" });
const lint = async (dir: string, env: Record<string, string>, extra: string[] = [], measureMemory = false) => {
  const run = await timeCommand([...poly, "lint", "--format", "json", "--no-workspace", ...extra], {
    cwd: dir,
    env: { ...Deno.env.toObject(), NO_COLOR: "1", POLY_CACHE_HOME: await home(), ...env },
    measureMemory,
  });
  const summary = run.stdout.startsWith("{") ? JSON.parse(run.stdout).summary : undefined;
  return { ...run, summary };
};

const repoAt = args.indexOf("--repo");
if (repoAt >= 0) {
  const runsAt = args.indexOf("--runs");
  await elsewhere(resolve(args[repoAt + 1]), runsAt >= 0 ? Number(args[runsAt + 1]) : 5);
  Deno.exit(0);
}

/** A checkout of `repo` at another path than the one that filled the remote cache (see the module doc). */
async function elsewhere(repo: string, runs: number): Promise<void> {
  const found = await serverCli();
  if ("reason" in found) throw new Error(`no remote cache server: ${found.reason}`);
  const name = basename(repo);
  const first = join(await tempDir({ prefix: "poly-bench-clone-" }), name);
  const other = join(await tempDir({ prefix: "poly-bench-clone-" }), "elsewhere", name);
  await copyTree(repo, first);
  await copyTree(repo, other);
  console.log(`${repo}: filled from ${first}, run at ${other}; ${runs} runs`);
  const server = await startServer(found.cli);
  const remote: number[] = [];
  const local: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const env = {
        POLY_REMOTE_CACHE_URL: server.url,
        POLY_REMOTE_CACHE_TOKEN: server.token,
        POLY_REMOTE_CACHE_TEAM: `team_bench_${i}`,
        POLY_REMOTE_CACHE_SIGNING_KEY: "bench",
      };
      const filled = await lint(first, env);
      const order = i % 2 === 0 ? ["remote", "local"] : ["local", "remote"];
      for (const side of order) {
        const run = await lint(other, side === "remote" ? env : {});
        (side === "remote" ? remote : local).push(run.ms);
        if (side === "remote") {
          console.log(
            `  run ${i + 1}: filled ${JSON.stringify(filled.summary?.cache)}; elsewhere ${
              JSON.stringify(run.summary?.cache)
            } in ${ms(run.ms)}`,
          );
        }
      }
    }
  } finally {
    await server.stop();
  }
  console.log(
    `elsewhere, empty cache home: with the remote cache ${spread(remote)}, without ${spread(local)}: ${
      (median(remote) / median(local)).toFixed(3)
    }×`,
  );
}

const { dir, files } = await largeCorpus("poly-bench-remote-", scale);
console.log(`corpus: ${files} files in ${dir}`);

const found = await serverCli();
if ("reason" in found) console.log(`remote: skipped (${found.reason})`);
else {
  const server = await startServer(found.cli);
  try {
    const env = {
      POLY_REMOTE_CACHE_URL: server.url,
      POLY_REMOTE_CACHE_TOKEN: server.token,
      POLY_REMOTE_CACHE_TEAM: "team_bench",
      POLY_REMOTE_CACHE_SIGNING_KEY: "bench",
    };
    const first = await lint(dir, env);
    const second = await lint(dir, env);
    console.log(
      `remote: first runner ${ms(first.ms)} (cache ${JSON.stringify(first.summary?.cache)}), second runner cold ` +
        `locally ${ms(second.ms)} (cache ${JSON.stringify(second.summary?.cache)}): ${
          (100 * second.ms / first.ms).toFixed(1)
        }% of the first (target <= 15%)`,
    );
  } finally {
    await server.stop();
  }
}

const whole = await lint(dir, {});
const [a, b] = await Promise.all([lint(dir, {}, ["--shard", "1/2"]), lint(dir, {}, ["--shard", "2/2"])]);
console.log(
  `shard: unsharded cold ${ms(whole.ms)}; 2 shards side by side ${ms(Math.max(a.ms, b.ms))} ` +
    `(${ms(a.ms)} + ${ms(b.ms)}, checked ${a.summary?.checked} + ${b.summary?.checked} of ${whole.summary?.checked})`,
);

if (memory) {
  const m20 = await lint(dir, {}, [], true);
  const big = await largeCorpus("poly-bench-remote-", 2 * scale);
  const m40 = await lint(big.dir, {}, [], true);
  const mb = (kb?: number) => kb === undefined ? "?" : `${(kb / 1024).toFixed(0)} MB`;
  console.log(
    `memory: peak RSS cold at ${files} files ${mb(m20.maxRssKb)} (${ms(m20.ms)}), at ${big.files} files ${
      mb(m40.maxRssKb)
    } (${ms(m40.ms)})`,
  );
  await Deno.remove(big.dir, { recursive: true });
}
await Deno.remove(dir, { recursive: true });
