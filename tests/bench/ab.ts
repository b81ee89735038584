/**
 * Before/after figures for one change (docs/performance.md): `poly lint` from two commits of this repository, run as
 * interleaved pairs on a copy of DIR, medians and min–max of each side and of the pairs' ratios.
 *
 *   deno run -P=test tests/bench/ab.ts --before HEAD~1 --after HEAD DIR            # warm runs (nothing changed)
 *   deno run -P=test tests/bench/ab.ts --before HEAD~1 --after HEAD --cold DIR     # cold: an empty result cache
 *   deno run -P=test tests/bench/ab.ts --before HEAD~1 --after HEAD --first DIR    # a machine's first run: empty homes
 *   deno run -P=test tests/bench/ab.ts --before HEAD~1 --after HEAD --version      # `poly --version`
 *   deno run -P=test tests/bench/ab.ts ... --engines biome DIR                     # only these lint engines on
 *   deno run -P=test tests/bench/ab.ts ... --daemon src/a.ts DIR                    # one edit through `poly daemon`
 *   deno run -P=test tests/bench/ab.ts ... --edit src/a.ts DIR                      # one edit, no daemon
 *   deno run -P=test tests/bench/ab.ts ... --fmt DIR                                # `poly fmt --check` for `poly lint`
 *   deno run -P=test tests/bench/ab.ts ... --fix DIR                                # `poly lint --fix` (`--fmt`: `poly fmt --fix`)
 *   deno run -P=test tests/bench/ab.ts ... --fix --checked --cold DIR               # each fix after an untimed `poly lint`
 *   deno run -P=test tests/bench/ab.ts ... --bundle DIR                             # each side bundled, where it can be
 *   deno run -P=test tests/bench/ab.ts ... --span "early batches" DIR               # and when that span starts
 *
 * With `--daemon FILE`, each side runs its own `poly daemon` on its own copy of DIR; before each pair a comment line
 * is added to FILE (a path relative to DIR) in both copies, and after 400 ms (the watcher hears of it, as of an
 * editor's save) the timed `poly lint` is the client that the daemon answers. With `--edit FILE`, the same edit
 * before each pair and no daemon: each side's process after its warm-up run (kept for replay, the copy of DIR having
 * settled first) and one edit, as an agent's `poly lint` after it changed a file. With `--fix`, each run gets a fresh
 * copy of DIR (made before its clock starts), since the run rewrites it; `--checked` runs `poly lint` on that copy in
 * the same home before the clock starts, as an agent checks and then fixes.
 *
 * Each commit is exported (`git archive`) into a temporary directory that shares this checkout's node_modules (one
 * whose `deno.lock` differs installs its own), and each side has cache homes of its own, primed by a run elsewhere,
 * and a `DENO_DIR` of its own (Deno's emitted code and V8's code cache, which V8 keeps per set of flags). With
 * `--bundle`, a side whose commit has `scripts/bundle.ts` builds its bundle first, as `deno task install` does, so
 * its `main.ts` loads the program from it (lib/identity/launch.ts); a side without one runs from source. With `--span
 * NAME`, the timed runs print poly's `POLY_DEBUG=timing` table, and each side's figures add when span NAME first
 * started on poly's clock and poly's own CPU (its child processes not counted): for a change to poly's start, whose
 * few milliseconds the engines' own time around them would hide in the wall figure (`early batches` is when a cold
 * run's batch engines start).
 * Prints figures; asserts nothing.
 *
 * @module
 */
import { basename, join, resolve } from "node:path";
import { ms, onlyEngines, parseTiming, spread, startDaemon, timeCommand, type Timed } from "./_measure.ts";
import { REPO } from "../_helpers/cli.ts";
import { sourceCommand } from "../../lib/identity/code.ts";
import { tempDir } from "../_helpers/temp.ts";
import { RACY_MS } from "../../lib/fs/read_log.ts";

const args = [...Deno.args];
const take = (flag: string) => {
  const i = args.indexOf(flag);
  return i < 0 ? undefined : args.splice(i, 2)[1];
};
const has = (flag: string) => {
  const i = args.indexOf(flag);
  return i >= 0 && args.splice(i, 1).length > 0;
};
const before = take("--before") ?? "HEAD~1";
const after = take("--after") ?? "HEAD";
const runs = Number(take("--runs") ?? Deno.env.get("RUNS") ?? 7);
const engines = take("--engines")?.split(",");
// A first run (a new machine, a CI job that keeps no cache home) starts with empty homes: no result cache, and none of
// the memos a primed home has (the engines' digests, the configuration's validation).
const first = has("--first");
const cold = has("--cold") || first;
const daemonFile = take("--daemon");
const editFile = take("--edit");
const version = has("--version");
const fmt = has("--fmt");
const fix = has("--fix");
const checked = has("--checked");
if (checked && !fix) throw new Error("--checked goes with --fix: each fix run after an untimed check");
const bundle = has("--bundle");
const spanName = take("--span");
if (!version && args.length !== 1) throw new Error("Give one directory: ab.ts --before A --after B [--cold] DIR");

const work = await tempDir({ prefix: "poly-ab-" });
const sh = async (cmd: string[], cwd?: string) => {
  const r = await new Deno.Command(cmd[0], { args: cmd.slice(1), cwd, stdout: "piped", stderr: "piped" }).output();
  if (r.code !== 0) throw new Error(`${cmd.join(" ")}: ${new TextDecoder().decode(r.stderr)}`);
  return new TextDecoder().decode(r.stdout).trim();
};

/** One side: its source tree, its poly command line and a home maker. */
async function side(name: string, commit: string) {
  const root = join(work, name);
  await Deno.mkdir(root);
  await sh(["sh", "-c", `git archive ${commit} | tar -x -C ${root}`], REPO);
  // This checkout's node_modules serves a commit with the same lockfile; another gets its own (a dependency came or went).
  const sameLock =
    await Deno.readTextFile(join(root, "deno.lock")) === await Deno.readTextFile(join(REPO, "deno.lock"));
  if (sameLock) await Deno.symlink(join(REPO, "node_modules"), join(root, "node_modules"));
  else await sh(["deno", "install", "--quiet"], root);
  const bundled = bundle && await Deno.stat(join(root, "scripts", "bundle.ts")).then(() => true, () => false);
  if (bundled) await sh(["deno", "run", "-q", "-P=build", "--no-prompt", "scripts/bundle.ts"], root);
  // The command line that commit runs itself with (its own V8 flags among them), where it has the function.
  const own = await import(join(root, "lib/identity/code.ts")).catch(() => undefined);
  const poly: string[] = typeof own?.sourceCommand === "function" ? own.sourceCommand(root) : sourceCommand(root);
  const template = join(work, `${name}-home`);
  // Deno's own caches (emitted code, V8's code cache) per side: V8 rejects code cached under other flags, so two sides
  // with different V8 flags sharing one would each find it rewritten by the other and run uncached every time.
  const denoDir = join(work, `${name}-deno`);
  const env = (home: string) => ({
    POLY_CACHE_HOME: join(home, "cache"),
    POLY_STATE_HOME: join(home, "state"),
    DENO_DIR: denoDir,
  });
  const prime = join(work, `${name}-prime`);
  await Deno.mkdir(prime);
  await Deno.writeTextFile(join(prime, "a.ts"), "export const a = 1;\n");
  await timeCommand([...poly, "lint", "--no-workspace", "."], { cwd: prime, env: env(template) });
  let n = 0;
  const fresh = async () => {
    const home = join(work, `${name}-home-${++n}`);
    if (first) await Deno.mkdir(home);
    else await sh(["cp", "-a", template, home]);
    return env(home);
  };
  const label = `${await sh(["git", "rev-parse", "--short", commit], REPO)}${bundled ? " (bundled)" : ""}`;
  return { name, commit: label, poly, fresh };
}

const daemons: Deno.ChildProcess[] = [];
try {
  const a = await side("before", before);
  const b = await side("after", after);
  let tree = "";
  /** A copy of DIR at `path` (as a repository of its own, with only `--engines` on), replacing what was there. */
  const copyTree = async (path: string) => {
    await Deno.remove(path, { recursive: true }).catch(() => {});
    await sh(["cp", "-a", resolve(args[0]), path]);
    await Deno.remove(join(path, ".git"), { recursive: true }).catch(() => {});
    await Deno.mkdir(join(path, ".git"));
    if (engines) await Deno.writeTextFile(join(path, "poly.local.toml"), onlyEngines(engines));
  };
  if (!version) {
    tree = join(work, basename(resolve(args[0])));
    await copyTree(tree);
  }
  // A daemon watches its own copy of the tree: each side gets one.
  const treeOf = (s: typeof a) => daemonFile ? `${tree}-${s.name}` : tree;
  if (daemonFile) { for (const s of [a, b]) await sh(["cp", "-a", tree, treeOf(s)]); }
  // A run is kept for replay only once what it read is older than RACY_MS (the copy was just made).
  if (editFile) await new Promise((r) => setTimeout(r, RACY_MS + 200));
  const command = fmt ? ["fmt", fix ? "--fix" : "--check"] : ["lint", "--no-workspace", ...(fix ? ["--fix"] : [])];
  const lint = (s: typeof a) => version ? [...s.poly, "--version"] : [...s.poly, ...command, "--format", "json", "."];
  const homes = new Map<string, Record<string, string>>();
  for (const s of [a, b]) {
    const home = await s.fresh();
    homes.set(s.name, home);
    if (daemonFile) daemons.push(await startDaemon(s.poly, treeOf(s), home));
    if (!version && !cold) await timeCommand(lint(s), { cwd: treeOf(s), env: home }); // fills the cache (the memo)
  }
  // After its first run a daemon loads the engines of the languages it saw; a person's first edit comes later.
  if (daemonFile) await new Promise((r) => setTimeout(r, 3000));
  let edits = 0;
  const edited = daemonFile ?? editFile;
  const edit = async () => {
    const comment = edited!.endsWith(".py") ? "#" : "//";
    edits++;
    for (const s of daemonFile ? [a, b] : [a]) {
      const path = join(treeOf(s), edited!);
      await Deno.writeTextFile(path, `${await Deno.readTextFile(path)}${comment} edited by ab.ts ${edits}\n`);
    }
    if (daemonFile) await new Promise((r) => setTimeout(r, 400));
  };
  const once = async (s: typeof a): Promise<Timed> => {
    if (fix) await copyTree(treeOf(s));
    const env = cold ? await s.fresh() : homes.get(s.name)!;
    if (checked) {
      const check = await timeCommand([...s.poly, "lint", "--no-workspace", "--format", "json", "."], {
        cwd: treeOf(s),
        env,
      });
      if (check.code > 1) throw new Error(`${s.name}: the check exited ${check.code}: ${check.stderr.slice(0, 300)}`);
    }
    const timing = spanName ? { ...env, POLY_DEBUG: "timing" } : env;
    const t = await timeCommand(lint(s), { cwd: treeOf(s) || work, env: timing, measureMemory: true });
    if (t.code > 1) throw new Error(`${s.name}: exit ${t.code}: ${t.stderr.slice(0, 300)}`);
    return t;
  };
  const times: Record<string, number[]> = { before: [], after: [] };
  const cpu: Record<string, number[]> = { before: [], after: [] };
  /** `--span`: when the span first started, and poly's own CPU, per run. */
  const spans: Record<string, number[]> = { before: [], after: [] };
  const ownCpu: Record<string, number[]> = { before: [], after: [] };
  for (let i = 0; i < runs; i++) {
    if (edited) await edit();
    const order = i % 2 === 0 ? [a, b] : [b, a];
    for (const s of order) {
      const t = await once(s);
      times[s.name].push(t.ms);
      cpu[s.name].push(t.cpuMs ?? NaN);
      if (spanName) {
        const table = parseTiming(t.stderr);
        spans[s.name].push(table.get(spanName)?.[0] ?? NaN);
        ownCpu[s.name].push(table.get("cpu")?.[2] ?? NaN);
      }
    }
  }
  const what = version
    ? "poly --version"
    : daemonFile
    ? `poly lint through poly daemon, ${daemonFile} edited before each pair, on ${args[0]}`
    : editFile
    ? `poly ${command[0]} ${command.slice(1).join(" ")}, ${editFile} edited before each pair, no daemon, on ${args[0]}`
    : `${first ? "first (empty homes)" : cold ? "cold" : "warm"} poly ${command.join(" ")}${
      checked ? " after poly lint" : ""
    }${engines ? ` (${engines})` : ""} on ${args[0]}`;
  console.log(`${what}, ${runs} interleaved pairs`);
  const ratio = (x: number) => `${x.toFixed(3)}×`;
  console.log(`  before ${a.commit}: wall ${spread(times.before, ms)}, CPU ${spread(cpu.before, ms)}`);
  console.log(`  after  ${b.commit}: wall ${spread(times.after, ms)}, CPU ${spread(cpu.after, ms)}`);
  console.log(
    `  after/before, pairs: wall ${spread(times.after.map((t, i) => t / times.before[i]), ratio)}, CPU ${
      spread(cpu.after.map((t, i) => t / cpu.before[i]), ratio)
    }`,
  );
  if (spanName) {
    for (const [label, list] of [[`"${spanName}" starts at`, spans], ["poly's own CPU", ownCpu]] as const) {
      console.log(
        `  ${label}: before ${spread(list.before, ms)}, after ${spread(list.after, ms)}; pairs ${
          spread(list.after.map((t, i) => t / list.before[i]), ratio)
        }`,
      );
    }
  }
} finally {
  for (const daemon of daemons) {
    try {
      daemon.kill("SIGTERM");
    } catch { /* ended */ }
    await daemon.status;
  }
  await Deno.remove(work, { recursive: true }).catch(() => {});
}
