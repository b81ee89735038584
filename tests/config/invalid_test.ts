/**
 * Every folder under fixtures/config/invalid/ holds a broken config and, in
 * expected.txt, the exact stderr `poly config show` must print for it (exit 2).
 * Each runs the real CLI with the program's permission flags.
 */
import { join } from "node:path";
import { equal } from "node:assert/strict";
import { copyFixture, type PolyRun, REPO, runPoly } from "../_helpers/cli.ts";

const ROOT = join(REPO, "fixtures", "config", "invalid");
const names = [...Deno.readDirSync(ROOT)].filter((e) => e.isDirectory).map((e) => e.name).sort();

/** Runs the fixtures a few at a time; each test awaits its own run. */
const CONCURRENCY = 3;
const runs = new Map<string, Promise<PolyRun>>();
let active = 0;
const waiting: (() => void)[] = [];
async function limited<T>(fn: () => Promise<T>): Promise<T> {
  if (active >= CONCURRENCY) await new Promise<void>((go) => waiting.push(go));
  active++;
  try {
    return await fn();
  } finally {
    active--;
    waiting.shift()?.();
  }
}
for (const name of names) {
  runs.set(
    name,
    limited(async () => {
      const dir = await copyFixture(join("config", "invalid", name));
      await Deno.remove(join(dir, "expected.txt"));
      await Deno.mkdir(join(dir, ".git"));
      try {
        return await runPoly(["config", "show"], { cwd: dir });
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    }),
  );
}

Deno.test("fixtures/config/invalid holds at least 15 cases", () => {
  equal(names.length >= 15, true, `only ${names.length} invalid config fixtures`);
});

for (const name of names) {
  Deno.test(`poly config show exits 2 with the exact message for invalid config "${name}"`, async () => {
    const expected = await Deno.readTextFile(join(ROOT, name, "expected.txt"));
    const run = await runs.get(name)!;
    equal(run.stderr, expected);
    equal(run.code, 2);
    equal(run.stdout, "", "nothing is printed on stdout for an invalid config");
  });
}
