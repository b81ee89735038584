/**
 * The schema-check memo (lib/config/valid.ts): a value this build's schema
 * accepted is answered from the memo (zod and the schemas are not loaded for
 * it), with what the schema made of it; a rejected value is never remembered;
 * a TOML date is never taken for the string of the same text.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ValidMemo } from "../../lib/config/valid.ts";
import { tempDir } from "../_helpers/temp.ts";

async function memoFile(): Promise<string> {
  return join(await tempDir({ prefix: "poly-valid-" }), "config", "valid-test.json");
}

Deno.test("a value the schema accepted is answered from the memo, across opens, with the schema's output", async () => {
  const path = await memoFile();
  const first = await ValidMemo.open(path);
  const checked = await first.safeParse<{ dirs: string[]; builtin: boolean }>("rules", { builtin: false });
  assert.deepEqual(checked, { success: true, data: { dirs: [".poly/rules"], builtin: false, overrides: {} } });
  const entries = JSON.parse(await Deno.readTextFile(path)) as Record<string, string>;
  assert.equal(Object.keys(entries).length, 1);

  // What a later process finds: the memo's answer, not the schema's (here made recognisable).
  const [key] = Object.keys(entries);
  await Deno.writeTextFile(path, JSON.stringify({ [key]: JSON.stringify({ from: "memo" }) }));
  const second = await ValidMemo.open(path);
  assert.deepEqual(await second.safeParse("rules", { builtin: false }), { success: true, data: { from: "memo" } });
  // Another value (or the same under another schema) is checked by the schema.
  assert.equal((await second.safeParse("rules", { builtin: true })).success, true);
  assert.equal((await second.safeParse("config", { rules: { builtin: false } })).success, true);
});

Deno.test("a rejected value is never remembered, and its problems come from the schema", async () => {
  const path = await memoFile();
  const memo = await ValidMemo.open(path);
  const bad = await memo.safeParse("rules", { dirs: "not a list", unknown: 1 });
  assert.equal(bad.success, false);
  assert.ok(!bad.success && bad.error.issues.length >= 2, "every problem, from zod");
  await assert.rejects(Deno.stat(path), Deno.errors.NotFound);
  assert.equal((await (await ValidMemo.open(path)).safeParse("rules", { dirs: "not a list" })).success, false);
});

Deno.test("a TOML date and the string of its text are different values to the memo", async () => {
  const memo = await ValidMemo.open(await memoFile());
  const date = new Date("2024-01-02T00:00:00.000Z");
  // [defaults] line_ending takes a string only: the string passes, the date (same text) must not.
  assert.equal((await memo.safeParse("config", { defaults: { line_ending: "lf" } })).success, true);
  assert.equal((await memo.safeParse("config", { cache: { dir: date.toISOString() } })).success, true);
  assert.equal((await memo.safeParse("config", { cache: { dir: date } })).success, false);
});

Deno.test("a damaged memo file is checked again rather than trusted", async () => {
  const path = await memoFile();
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(path, "{ not json");
  const memo = await ValidMemo.open(path);
  assert.equal((await memo.safeParse("rules", {})).success, true);
  assert.equal(Object.keys(JSON.parse(await Deno.readTextFile(path))).length, 1);
});
