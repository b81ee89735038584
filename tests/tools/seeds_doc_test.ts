/**
 * docs/seeds.md, the seed-to-feature table: every test and code path it names
 * exists, and every row names a test or says why it is open.
 */
import assert from "node:assert/strict";

const root = new URL("../../", import.meta.url);

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(new URL(path, root));
    return true;
  } catch {
    return false;
  }
}

Deno.test("docs/seeds.md names only tests and code that exist, and no open row without a reason", async () => {
  const doc = await Deno.readTextFile(new URL("docs/seeds.md", root));
  const rows = doc.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| seed promise") && !/^\| -/.test(l));
  assert.ok(rows.length >= 40, `${rows.length} rows`);
  for (const row of rows) {
    const cells = row.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());
    assert.equal(cells.length, 3, row);
    const [, where, test] = cells;
    if (where.includes("**open**")) {
      assert.match(where, /\*\*open\*\*: \S.{20,}/, `an open row says why: ${row}`);
      continue;
    }
    assert.match(test, /`tests\/[^`]+_test\.ts`/, `a kept promise names its test: ${row}`);
  }
  const paths = [...doc.matchAll(/`((?:tests|lib|tools)\/[^`\s]+?\.ts)`/g)].map((m) => m[1]);
  for (const path of new Set(paths.filter((p) => !p.includes("*")))) assert.ok(await exists(path), `${path} exists`);
  const dirs = [...doc.matchAll(/`((?:lib|tools)\/[a-z_]+\/)`/g)].map((m) => m[1]);
  for (const dir of new Set(dirs)) assert.ok(await exists(dir), `${dir} exists`);
});
