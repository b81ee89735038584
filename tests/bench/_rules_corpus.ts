/**
 * A small deterministic corpus for the rules bench: TypeScript and Python
 * modules of about 60 lines each, some carrying findings of the built-in pack
 * (eval, console.log, debugger, == None, print, bare except, ...).
 * (Local generator: `tests/bench/corpus.ts` did not exist when this was written.)
 *
 * @module
 */
import { join } from "node:path";
import { BUILTIN_DIR } from "../../lib/rules/_files.ts";

/**
 * Chance that a function carries a finding: 2%, so about one file in nine has
 * one — a repository that is linted regularly, not a minefield.
 */
export const FINDING_RATE = 0.02;

/** A seeded pseudo-random generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function tsModule(i: number, r: () => number): string {
  const lines = [`import { helper${i % 17} } from "./helpers.ts";`, ""];
  lines.push(`export interface Item${i} {`, "  id: number;", "  name: string;", "  tags: string[];", "}", "");
  for (let f = 0; f < 6; f++) {
    lines.push(`export function compute${i}_${f}(items: Item${i}[], limit = ${f + 3}): number {`);
    lines.push("  let total = 0;");
    lines.push("  for (const item of items) {");
    lines.push(`    if (item.tags.includes("t${f}")) total += item.id * ${f + 1};`);
    lines.push("    else total -= helper" + (i % 17) + "(item.name).length;");
    lines.push("  }");
    const roll = r();
    if (roll < FINDING_RATE * 0.2) lines.push("  debugger;");
    else if (roll < FINDING_RATE * 0.6) lines.push("  console.log(total);");
    else if (roll < FINDING_RATE * 0.8) lines.push("  total += eval(String(limit));");
    else if (roll < FINDING_RATE) lines.push("  try { helper0(String(total)); } catch (e) {}");
    lines.push("  return total > limit ? limit : total;", "}", "");
  }
  lines.push(`export const table${i} = new Map<string, number>([["a", 1], ["b", 2]]);`);
  return lines.join("\n") + "\n";
}

function pyModule(i: number, r: () => number): string {
  const lines = [`"""Module ${i}."""`, "import os", "import subprocess", ""];
  for (let f = 0; f < 6; f++) {
    const roll = r();
    lines.push(
      roll < FINDING_RATE * 0.2 ? `def compute_${f}(items, seen=[]):` : `def compute_${f}(items, limit=${f + 3}):`,
    );
    lines.push(`    """Compute ${f}."""`);
    lines.push("    total = 0");
    lines.push("    for item in items:");
    lines.push(`        if item.get("tag") == "t${f}":`);
    lines.push(`            total += item["id"] * ${f + 1}`);
    lines.push("        else:");
    lines.push('            total -= len(item.get("name", ""))');
    if (roll < FINDING_RATE * 0.2) lines.push("    if items == None:", "        return 0");
    else if (roll < FINDING_RATE * 0.6) lines.push("    print(total)");
    else if (roll < FINDING_RATE * 0.8) lines.push("    try:", "        os.remove('x')", "    except:", "        pass");
    else if (roll < FINDING_RATE) lines.push("    subprocess.run('ls', shell=True)");
    lines.push("    return total", "", "");
  }
  lines.push(`TABLE_${i} = {"a": 1, "b": 2}`);
  return lines.join("\n") + "\n";
}

/** Writes `count` TypeScript and `count` Python modules under `dir/src` and `dir/pkg`; returns the file paths. */
export async function writeRulesCorpus(dir: string, count: number, seed = 42): Promise<string[]> {
  const r = rng(seed);
  const paths: string[] = [];
  for (const sub of ["src", "pkg"]) await Deno.mkdir(join(dir, sub), { recursive: true });
  for (let i = 0; i < count; i++) {
    const ts = join(dir, "src", `mod${i}.ts`);
    const py = join(dir, "pkg", `mod${i}.py`);
    await Deno.writeTextFile(ts, tsModule(i, r));
    await Deno.writeTextFile(py, pyModule(i, r));
    paths.push(ts, py);
  }
  return paths;
}

/**
 * Copies the built-in TypeScript and Python rules into `dir/rules` and writes
 * `dir/sgconfig.yml` naming that folder: the same rule files for `ast-grep scan`
 * as poly applies.
 */
export async function writeRulesForScan(dir: string): Promise<void> {
  await Deno.mkdir(join(dir, "rules"));
  for (const lang of ["typescript", "python"]) {
    for await (const e of Deno.readDir(join(BUILTIN_DIR, lang))) {
      if (!e.name.endsWith("-test.yml")) {
        await Deno.copyFile(join(BUILTIN_DIR, lang, e.name), join(dir, "rules", e.name));
      }
    }
  }
  await Deno.writeTextFile(join(dir, "sgconfig.yml"), "ruleDirs:\n  - rules\n");
}
