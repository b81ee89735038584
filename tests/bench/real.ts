/**
 * Performance on a real repository, against the native tools (issue 27). Prints, as interleaved pairs with medians
 * and min–max:
 *
 * - cold `poly lint` with only the reference engine (biome for a JS/TS tree, ruff for a Python one) against that
 *   engine's own command line of the same version on the same tree (wall and CPU);
 * - the same with empty homes: a machine's first run, or a CI job that keeps no cache home between jobs;
 * - `poly lint` with only the rule pack against `ast-grep scan` with the same rule files on the same files;
 * - a warm `poly lint` (nothing changed, every engine poly runs by default) against the native reference, cold;
 * - one edited file through a running `poly daemon`, end to end (the client process included; the daemon has run
 *   once and had 3 s to load its engines), and without one;
 * - `poly --version`;
 *
 * then where poly's wall time goes: the spans `POLY_DEBUG=timing` prints (lib/debug/timing.ts), medians of a few
 * runs, for the cold reference-only run, the cold rules-only run and the warm run.
 *
 *   deno run -P=test tests/bench/real.ts DIR
 *   deno run -P=test tests/bench/real.ts --runs 9 --only cold,warm DIR
 *   deno run -P=test tests/bench/real.ts --json DIR      # the figures as one JSON document, after the tables
 *
 * poly runs as an installed checkout runs it (`deno run -q -P main.ts`, `poly lint` loading the program from the
 * bundle `deno task install` builds): the bundle of the checkout as it is is built first (`deno task bundle`), unless
 * `--source` asks for the program from source (`POLY_BUNDLE=off`). Everything happens on a copy of DIR (its `.git`
 * reduced to `info/exclude`), into which the run writes the `poly.local.toml` that leaves one engine on; DIR itself
 * is never written. A cold run has an empty result cache in a cache home where poly has run before, elsewhere, with
 * the same engine selection (what a machine where poly is installed and used meets); the native tools run without
 * their caches. Native command lines are those of tests/bench/parity.ts (installed on demand at poly's pins): biome's
 * and ast-grep's are their platform packages' binaries, as poly starts them, not npm's Node.js launchers of them
 * (`npmExecutable`).
 * Figures are printed, never asserted.
 *
 * @module
 */
import { basename, join, resolve } from "node:path";
import { median, ms, onlyEngines, parseTiming, spread, startDaemon, timeCommand, type Timed } from "./_measure.ts";
import { astGrepConfig, npmExecutable, pin, pipRuff } from "./parity.ts";
import { polyCommand } from "../_helpers/cli.ts";
import { discover } from "../../lib/discover/mod.ts";
import { openConfig } from "../../lib/config/load.ts";
import type { Language } from "../../lib/engines/types.ts";
import { RACY_MS } from "../../lib/fs/read_log.ts";
import { tempDir } from "../_helpers/temp.ts";
import { buildBundle } from "../../scripts/bundle.ts";

const BIOME_LANGUAGES = new Set<Language>(["javascript", "typescript", "json", "css", "graphql"]);

interface Options {
  runs: number;
  only: Set<string>;
  json: boolean;
  /** The program from source (`POLY_BUNDLE=off`) rather than from the checkout's bundle. */
  source: boolean;
  dir: string;
}

function parseArgs(args: string[]): Options {
  const options: Options = {
    runs: Number(Deno.env.get("RUNS") ?? 5),
    only: new Set(["cold", "first", "rules", "warm", "daemon", "version", "breakdown"]),
    json: false,
    source: false,
    dir: "",
  };
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--runs") options.runs = Number(args[++i]);
    else if (a === "--only") options.only = new Set(args[++i].split(","));
    else if (a === "--json") options.json = true;
    else if (a === "--source") options.source = true;
    else if (a === "-h" || a === "--help") {
      console.log(
        "Usage: deno run -P=test tests/bench/real.ts [--runs N] [--only cold,first,rules,warm,daemon,version,breakdown] [--json] [--source] DIR",
      );
      Deno.exit(0);
    } else rest.push(a);
  }
  if (rest.length !== 1) throw new Error("Give exactly one directory: real.ts [options] DIR");
  options.dir = resolve(rest[0]);
  return options;
}

/** One figure: poly's runs, the native runs paired with them (when any), and the target. */
interface Figure {
  name: string;
  poly: number[];
  native?: number[];
  polyCpu?: number[];
  nativeCpu?: number[];
  target: string;
  /** What the figure is compared on: "ratio" of the pairs, or poly's "ms". */
  unit: "ratio" | "ms";
  note?: string;
}

const ratio = (x: number) => `${x.toFixed(2)}×`;

function row(f: Figure): string {
  const pairs = f.native ? f.poly.map((p, i) => p / f.native![i]) : [];
  const cpu = f.polyCpu && f.nativeCpu ? f.polyCpu.map((p, i) => p / f.nativeCpu![i]) : [];
  const figure = f.unit === "ratio" ? spread(pairs, ratio) : spread(f.poly, ms);
  return `| ${f.name} | ${spread(f.poly, ms)} | ${f.native ? spread(f.native, ms) : "—"} | ${figure}${
    cpu.length ? `; CPU ${spread(cpu, ratio)}` : ""
  } | ${f.target} |`;
}

/** Copies `from` to `to`: every file but `.git`'s, of which only `info/exclude` is kept (poly reads no more of it). */
export async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for (const entry of Deno.readDirSync(from)) {
    if (entry.name === ".git") continue;
    const r = await new Deno.Command("cp", { args: ["-a", join(from, entry.name), to] }).output();
    if (r.code !== 0) throw new Error(`cp ${entry.name}: ${new TextDecoder().decode(r.stderr)}`);
  }
  await Deno.mkdir(join(to, ".git", "info"), { recursive: true });
  await Deno.copyFile(join(from, ".git", "info", "exclude"), join(to, ".git", "info", "exclude")).catch(() => {});
}

/** The files poly's discovery finds in `dir`, with their languages. */
async function polyFiles(dir: string): Promise<{ relPath: string; language: Language }[]> {
  const configs = await openConfig({ cwd: dir });
  const found = await discover({
    cwd: dir,
    paths: [],
    includeUnknown: false,
    configFor: async (d) => {
      const c = await configs.forDir(d);
      return { excludes: c.excludes, forceExclude: c.data.discovery.force_exclude };
    },
  });
  return found.flatMap((c) => c.kind === "file" ? [{ relPath: c.relPath, language: c.language }] : []);
}

/** The errored files of a JSON report (`path: error`), or undefined when `stdout` is not one. */
function erroredFiles(stdout: string): string[] | undefined {
  try {
    const report = JSON.parse(stdout) as { results?: { path: string; error?: string }[] };
    return report.results?.filter((r) => r.error !== undefined).map((r) => `${r.path}: ${r.error}`);
  } catch {
    return undefined;
  }
}

/** A `poly.local.toml` that leaves only `keep` of the lint engines on (undefined: every engine, as by default). */
function localToml(original: string, keep?: string[]): string {
  return keep ? `${original}\n${onlyEngines(keep)}` : original;
}

/**
 * A client's stderr through a daemon under `POLY_DEBUG=timing`: the client's own text, and the daemon's table for
 * the request with its times made relative to the request's arrival.
 */
function splitDaemonTiming(stderr: string): [string, Map<string, [number, number, number]>] {
  const at = stderr.indexOf("poly daemon timing");
  if (at < 0) return [stderr, new Map()];
  const rest = stderr.slice(at);
  const end = rest.indexOf("\npoly timing");
  const daemon = parseTiming(end < 0 ? rest : rest.slice(0, end));
  const zero = daemon.get("daemon request")?.[0] ?? 0;
  for (const row of daemon.values()) {
    row[0] -= zero;
    row[1] -= zero;
  }
  return [stderr.slice(0, at) + (end < 0 ? "" : rest.slice(end + 1)), daemon];
}

/**
 * Median rows of several timing tables, plus the time outside poly's clock (wall − exit: Deno's start before it, and
 * the process's end after the `exit` row, which grows with the heap) beside what an `empty` program's whole run
 * takes; for a `resident` process's request (times from its arrival), the client's wall instead. Last, the CPU of
 * poly's own process (the table's `cpu` row) and, where a run's whole CPU was measured (`cpu`: its child processes
 * included), what its child processes took, beside the native command's own CPU (`nativeCpu`, its runs of the
 * figure) where there is one: on a machine with few cores, the engines' share and poly's beside it.
 */
function breakdown(
  label: string,
  runs: { wall: number; cpu?: number; table: Map<string, [number, number, number]> }[],
  resident = false,
  empty?: number,
  nativeCpu: number[] = [],
): string {
  const names = [...new Set(runs.flatMap((r) => [...r.table.keys()]))].filter((n) => n !== "exit" && n !== "cpu");
  const med = (name: string, k: 0 | 1 | 2) => median(runs.map((r) => r.table.get(name)?.[k] ?? NaN).filter(isFinite));
  names.sort((a, b) => med(a, 0) - med(b, 0));
  const exit = median(runs.map((r) => r.table.get("exit")?.[0] ?? NaN).filter(isFinite));
  const wall = median(runs.map((r) => r.wall));
  const lines = [
    resident
      ? `\n${label}: the client's wall ${ms(wall)} (median of ${runs.length}); times from the request's arrival`
      : `\n${label}: wall ${ms(wall)} (median of ${runs.length}); poly's clock starts after Deno's own start-up`,
    "",
    "| span | start | end | time |",
    "|---|---:|---:|---:|",
    ...(resident ? [] : [
      `| outside poly's clock: Deno's start before it, the process's end after exit (wall − exit) | | | ${
        ms(wall - exit)
      } |`,
      ...(empty === undefined
        ? []
        : [`| an empty program's whole run, for comparison (same flags) | | | ${ms(empty)} |`]),
    ]),
  ];
  for (const name of names) {
    lines.push(`| ${name} | ${med(name, 0).toFixed(0)} | ${med(name, 1).toFixed(0)} | ${ms(med(name, 2))} |`);
  }
  lines.push(`| exit | ${exit.toFixed(0)} | | |`);
  const own = runs.map((r) => r.table.get("cpu")?.[2] ?? NaN);
  if (own.some(isFinite)) {
    lines.push(`| CPU of poly's own process (user + system, its threads) | | | ${ms(median(own.filter(isFinite)))} |`);
    // `/usr/bin/time` counts in 10 ms steps: a run that started no process can come out a few ms below zero.
    const children = runs.map((r, i) => Math.max(0, (r.cpu ?? NaN) - own[i])).filter(isFinite);
    if (children.length > 0) {
      lines.push(`| CPU of its child processes (the run's whole CPU less poly's own) | | | ${ms(median(children))} |`);
    }
    if (nativeCpu.length > 0) {
      lines.push(
        `| CPU of the native command alone, beside them (median of the figure's runs) | | | ${ms(median(nativeCpu))} |`,
      );
    }
  }
  return lines.join("\n");
}

async function main(): Promise<void> {
  const o = parseArgs(Deno.args);
  const work = await tempDir({ prefix: "poly-real-" });
  const procs: Deno.ChildProcess[] = [];
  try {
    const tree = join(work, basename(o.dir));
    await copyTree(o.dir, tree);
    const original = await Deno.readTextFile(join(tree, "poly.local.toml")).catch(() => "");
    const setEngines = (keep?: string[]) =>
      Deno.writeTextFile(join(tree, "poly.local.toml"), localToml(original, keep));
    const poly = polyCommand();
    const lint = [...poly, "lint", "--no-workspace", "--format", "json", "."];

    const files = await polyFiles(tree);
    const biomeFiles = files.filter((f) => BIOME_LANGUAGES.has(f.language)).length;
    const pythonFiles = files.filter((f) => f.language === "python").length;
    const reference = biomeFiles >= pythonFiles ? "biome" : "ruff";

    // A cache home where poly has run before, elsewhere; each cold run gets a copy of it. It has run with each
    // engine selection the figures use (the poly.local.toml this script writes into the tree), as a person's poly
    // has run with their configuration: the selection is the harness's, not the tree's, and a first sight of it
    // would add a schema check (~50–80 ms, lib/config/valid.ts) that no user of the tree pays.
    const template = join(work, "home");
    const env = (home: string) => ({
      POLY_CACHE_HOME: join(home, "cache"),
      POLY_STATE_HOME: join(home, "state"),
      NO_COLOR: "1",
    });
    const prime = join(work, "prime");
    await Deno.mkdir(prime);
    await Deno.writeTextFile(join(prime, "prime.ts"), "export const x = 1;\n");
    for (const keep of [[reference], ["ast-grep"], undefined]) {
      await Deno.writeTextFile(join(prime, "poly.local.toml"), localToml(original, keep));
      await timeCommand([...poly, "lint", "--no-workspace", "--format", "json", "."], {
        env: env(template),
        cwd: prime,
      });
    }
    let homes = 0;
    /**
     * A copy of the primed home; `empty`: a home where poly has never run (no result cache, nor any memo: the engines'
     * digests, a validated schema).
     */
    const freshHome = async (empty = false) => {
      const home = join(work, `home-${++homes}`);
      if (empty) await Deno.mkdir(home);
      else await new Deno.Command("cp", { args: ["-a", template, home] }).output();
      return env(home);
    };

    const native = reference === "biome"
      ? [
        await npmExecutable("@biomejs/biome", pin("@biomejs/wasm-nodejs")),
        "lint",
        "--reporter=json",
        "--max-diagnostics=none",
        ".",
      ]
      : [
        await pipRuff(pin("@astral-sh/ruff-wasm-nodejs")),
        "check",
        "--output-format=json",
        "--no-cache",
        // A project's `fix = true` (flask's) would have `ruff check` rewrite the copy the figures are taken on.
        "--no-fix",
        "--exit-zero",
        ".",
      ];
    console.log(
      `real.ts on ${o.dir}: ${files.length} files poly discovers (${biomeFiles} for biome, ${pythonFiles} Python); ` +
        `reference engine ${reference}; ${o.runs} runs per figure; tree copied to ${tree}`,
    );
    console.log(`  native ${reference}: ${native.join(" ")}`);
    // From the checkout's bundle, as an installed poly runs (built now if the source changed since the last one), or
    // from source with --source; every poly command below inherits the choice.
    if (o.source) Deno.env.set("POLY_BUNDLE", "off");
    else await buildBundle();
    const launch = await new Deno.Command(poly[0], {
      args: [...poly.slice(1), "lint", "--help"],
      env: { POLY_DEBUG: "launch" },
      stdout: "null",
      stderr: "piped",
    }).output();
    console.log(`  ${new TextDecoder().decode(launch.stderr).trim().replace(/^poly: /, "")}`);

    const said = new Set<string>();
    const check = (label: string, t: Timed) => {
      // Exit 2 with a whole report is a run that did its work and found files it could not check (an engine
      // crashed on one, say): its time counts, and what it could not check is said once. Anything else stops.
      const errored = t.code === 2 ? erroredFiles(t.stdout) : undefined;
      if (errored?.length) {
        const line = `  note: poly exits 2 on this tree (${errored.length} errored: ${errored.slice(0, 3).join("; ")})`;
        if (!said.has(line)) console.log(line);
        said.add(line);
        return t;
      }
      if (t.code > 1) throw new Error(`${label}: exit ${t.code}: ${(t.stderr || t.stdout).slice(0, 400)}`);
      return t;
    };
    /** `runs` interleaved pairs (which side goes first alternates), each poly run in a fresh home when `cold`. */
    const pairs = async (
      name: string,
      polyRun: () => Promise<Timed>,
      nativeRun: () => Promise<Timed>,
      target: string,
    ): Promise<Figure> => {
      const f: Figure = { name, poly: [], native: [], polyCpu: [], nativeCpu: [], target, unit: "ratio" };
      for (let i = 0; i < o.runs; i++) {
        const [a, b] = i % 2 === 0
          ? [await polyRun(), await nativeRun()]
          : await nativeRun().then(async (n) => [await polyRun(), n]);
        check(`poly (${name})`, a);
        f.poly.push(a.ms);
        f.native!.push(b.ms);
        if (a.cpuMs !== undefined && b.cpuMs !== undefined) {
          f.polyCpu!.push(a.cpuMs);
          f.nativeCpu!.push(b.cpuMs);
        }
      }
      return f;
    };
    const figures: Figure[] = [];
    const timings: string[] = [];
    const timingRuns = Math.min(o.runs, 3);
    // What Deno's start and end cost a program that does nothing: the same command line, a script that only exits.
    let empty: number | undefined;
    if (o.only.has("breakdown")) {
      const script = join(work, "empty.ts");
      await Deno.writeTextFile(script, "Deno.exit(0);\n");
      const walls = [];
      for (let i = 0; i < 7; i++) {
        walls.push(check("an empty program", await timeCommand([...poly.slice(0, -1), script])).ms);
      }
      empty = median(walls);
    }
    const timeRuns = async (label: string, run: () => Promise<Timed>, native?: Figure) => {
      const runs = [];
      for (let i = 0; i < timingRuns; i++) {
        const t = check(label, await run());
        runs.push({ wall: t.ms, cpu: t.cpuMs, table: parseTiming(t.stderr) });
      }
      timings.push(breakdown(label, runs, false, empty, native?.nativeCpu));
    };
    const timingEnv = (e: Record<string, string>) => ({ ...e, POLY_DEBUG: "timing" });

    if (o.only.has("cold")) {
      await setEngines([reference]);
      figures.push(
        await pairs(
          `cold \`poly lint\`, ${reference} only, vs \`${basename(native[0])} ${native[1]}\``,
          async () => timeCommand(lint, { cwd: tree, env: await freshHome(), measureMemory: true }),
          () => timeCommand(native, { cwd: tree, measureMemory: true }),
          "≤ 1.2× wall",
        ),
      );
      if (o.only.has("breakdown")) {
        await timeRuns(
          `cold, ${reference} only`,
          async () => timeCommand(lint, { cwd: tree, env: timingEnv(await freshHome()), measureMemory: true }),
          figures.at(-1),
        );
      }
    }

    if (o.only.has("first")) {
      await setEngines([reference]);
      figures.push(
        await pairs(
          `first \`poly lint\` (empty homes: a new machine, a CI job), ${reference} only, vs \`${basename(native[0])} ${
            native[1]
          }\``,
          async () => timeCommand(lint, { cwd: tree, env: await freshHome(true), measureMemory: true }),
          () => timeCommand(native, { cwd: tree, measureMemory: true }),
          "—",
        ),
      );
    }

    if (o.only.has("rules")) {
      const sg = await npmExecutable("@ast-grep/cli", pin("@ast-grep/cli"));
      const sgconfig = await astGrepConfig(work, tree);
      // The same files on both sides: those poly discovers and lints with the rule pack (every known language).
      const sgArgs = [
        sg,
        "scan",
        "--config",
        sgconfig,
        "--no-ignore",
        "hidden",
        "--json=stream",
        ...files.map((f) => f.relPath),
      ];
      await setEngines(["ast-grep"]);
      figures.push(
        await pairs(
          "cold `poly lint`, rule pack only, vs `ast-grep scan`, same rule files and files",
          async () => timeCommand(lint, { cwd: tree, env: await freshHome(), measureMemory: true }),
          () => timeCommand(sgArgs, { cwd: tree, measureMemory: true }),
          "≤ 1.2× wall",
        ),
      );
      if (o.only.has("breakdown")) {
        await timeRuns(
          "cold, rule pack only",
          async () => timeCommand(lint, { cwd: tree, env: timingEnv(await freshHome()), measureMemory: true }),
          figures.at(-1),
        );
      }
    }

    // Warm and daemon figures run every engine poly runs by default.
    await setEngines(undefined);
    // "Nothing changed": a run is kept for replay only once what it read is older than RACY_MS (lib/fs/read_log.ts),
    // so the warm-up waits for the poly.local.toml just written to settle, as a person's tree has.
    await new Promise((r) => setTimeout(r, RACY_MS + 200));
    const warmHome = await freshHome();
    check("poly (warm-up)", await timeCommand(lint, { cwd: tree, env: warmHome }));
    if (o.only.has("warm")) {
      const f = await pairs(
        `warm \`poly lint\` (nothing changed, default engines) vs \`${basename(native[0])} ${native[1]}\` cold`,
        () => timeCommand(lint, { cwd: tree, env: warmHome }),
        () => timeCommand(native, { cwd: tree }),
        "≤ 0.1×",
      );
      delete f.polyCpu;
      figures.push(f);
      if (o.only.has("breakdown")) {
        await timeRuns(
          "warm, default engines",
          () => timeCommand(lint, { cwd: tree, env: timingEnv(warmHome), measureMemory: true }),
        );
      }
    }

    if (o.only.has("daemon")) {
      const target = files.find((f) => f.language === (reference === "biome" ? "typescript" : "python")) ??
        files.find((f) => BIOME_LANGUAGES.has(f.language) || f.language === "python");
      if (target) {
        const path = join(tree, target.relPath);
        const comment = target.language === "python" ? "#" : "//";
        let n = 0;
        const edit = async () => {
          await Deno.writeTextFile(path, `${await Deno.readTextFile(path)}${comment} edited by real.ts ${++n}\n`);
        };
        const direct = { ...warmHome, POLY_DAEMON: "0" };
        const alone: number[] = [];
        for (let i = 0; i < o.runs; i++) {
          await edit();
          alone.push(check("poly (one edit)", await timeCommand(lint, { cwd: tree, env: direct })).ms);
        }
        figures.push({
          name: `one edited file (${target.relPath}), no daemon`,
          poly: alone,
          target: "—",
          unit: "ms",
        });
        /** A `poly daemon` on the tree under `env`, once it answers and has run once. */
        const daemonOn = async (env: Record<string, string>) => {
          const daemon = await startDaemon(poly, tree, env);
          procs.push(daemon);
          check("poly (daemon, first run)", await timeCommand(lint, { cwd: tree, env }));
          // After its first run the daemon loads the in-process engines of the languages it saw (prewarm); a person's
          // first edit comes later than that, so the figure is the steady state, not a request queued behind it.
          await new Promise((r) => setTimeout(r, 3000));
          return async () => {
            daemon.kill("SIGTERM");
            await daemon.status;
            procs.splice(procs.indexOf(daemon), 1);
          };
        };
        const stopDaemon = await daemonOn(warmHome);
        const through: number[] = [];
        for (let i = 0; i < o.runs; i++) {
          await edit();
          // The watcher hears of the edit first, as it would of an editor's save.
          await new Promise((r) => setTimeout(r, 200));
          through.push(check("poly (daemon, one edit)", await timeCommand(lint, { cwd: tree, env: warmHome })).ms);
        }
        figures.push({
          name: "one edited file through `poly daemon`, end to end",
          poly: through,
          target: "≤ 150 ms",
          unit: "ms",
        });
        await stopDaemon();
        if (o.only.has("breakdown")) {
          // Another daemon, under POLY_DEBUG=timing (a client is served only with the daemon's own value): each
          // request's table comes back on the client's stderr before the client's own.
          const env = timingEnv(warmHome);
          const stop = await daemonOn(env);
          const served = [];
          const clients = [];
          for (let i = 0; i < timingRuns; i++) {
            await edit();
            await new Promise((r) => setTimeout(r, 200));
            const t = check("poly (daemon, timing)", await timeCommand(lint, { cwd: tree, env }));
            const [own, request] = splitDaemonTiming(t.stderr);
            served.push({ wall: t.ms, table: request });
            clients.push({ wall: t.ms, table: parseTiming(own) });
          }
          await stop();
          timings.push(breakdown("one edited file through `poly daemon`: the client process", clients, false, empty));
          timings.push(breakdown("one edited file through `poly daemon`: the daemon's request", served, true));
        }
      }
    }

    if (o.only.has("version")) {
      const times: number[] = [];
      for (let i = 0; i < o.runs; i++) {
        times.push(check("poly --version", await timeCommand([...poly, "--version"])).ms);
      }
      figures.push({ name: "`poly --version`", poly: times, target: "≤ 150 ms", unit: "ms" });
    }

    console.log("\n| figure | poly | native | figure: median (min–max) | target |\n|---|---|---|---|---|");
    for (const f of figures) console.log(row(f));
    for (const t of timings) console.log(t);
    if (o.json) console.log(JSON.stringify({ dir: o.dir, reference, files: files.length, figures }, null, 2));
  } finally {
    for (const p of procs) {
      try {
        p.kill("SIGTERM");
        await p.status;
      } catch { /* ended */ }
    }
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) await main();
