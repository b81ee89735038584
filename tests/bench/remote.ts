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
 * `deno run -P=test tests/bench/remote.ts [--scale F] [--no-memory]`
 *
 * @module
 */
import { largeCorpus } from "./corpus.ts";
import { ms, timeCommand } from "./_measure.ts";
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
