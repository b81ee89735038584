/**
 * The fast path of main.ts: a command parsed with its own parser and optique's
 * core only (lib/cli/commands/table.ts) must mean exactly what the full command
 * line makes of the same arguments, and must step aside for anything the full
 * parser prints (help, usage errors, completion).
 */
import assert from "node:assert/strict";
import { fastPath } from "../../lib/cli/main.ts";
import { map, or, parse } from "../../lib/cli/_optique.ts";
import { COMMANDS } from "../../lib/cli/commands/mod.ts";
import { COMMAND_TABLE } from "../../lib/cli/commands/table.ts";
import { EXAMPLES } from "../../lib/cli/examples.ts";
import { exampleWords } from "./_examples.ts";

const full = or(...COMMANDS.map((spec) => map(spec.parser, (value) => ({ spec, value }))));

Deno.test("fastPath() gives the full parser's command and value for lint and fmt arguments", async () => {
  for (
    const args of [
      ["lint"],
      ["lint", "src", "tests/a.ts"],
      ["lint", "--fix", "--format", "json", "--exclude", "*.gen.ts", "--exclude", "vendor", "."],
      ["lint", "--no-cache", "--jobs", "3", "--no-workspace", "--config", "x/poly.toml", "a.py"],
      ["lint", "--format", "sarif"],
      ["fmt"],
      ["fmt", "--fix", "--format", "toon", "a.go", "b.rs"],
      ["fmt", "--no-cache", "--jobs", "1", "."],
    ]
  ) {
    const fast = await fastPath(args);
    const slow = parse(full, args);
    assert.ok(slow.success, `the full parser refuses ${args.join(" ")}`);
    assert.ok(fast, `no fast path for ${args.join(" ")}`);
    assert.equal(fast.spec, slow.value.spec, args.join(" "));
    assert.deepEqual(fast.value, slow.value.value, args.join(" "));
  }
});

Deno.test("fastPath() gives the full parser's command and value for every command's examples", async () => {
  let checked = 0;
  for (const [word, examples] of Object.entries(EXAMPLES)) {
    for (const [example] of examples) {
      const args = exampleWords(example).slice(1);
      if (args.length === 0 || args[0] !== word) continue;
      const slow = parse(full, args);
      const fast = await fastPath(args);
      if (!slow.success) {
        assert.equal(fast, undefined, `${example}: the full parser refuses it, the fast path must too`);
        continue;
      }
      assert.ok(fast, `no fast path for ${example}`);
      assert.equal(fast.spec, slow.value.spec, example);
      assert.deepEqual(fast.value, slow.value.value, example);
      checked++;
    }
  }
  assert.ok(checked > 40, `only ${checked} examples checked`);
});

Deno.test("the command table names every command once, in the full list's order", async () => {
  const specs = await Promise.all(COMMAND_TABLE.map(([, load]) => load()));
  assert.deepEqual(specs, COMMANDS);
  assert.equal(new Set(COMMAND_TABLE.map(([word]) => word)).size, COMMAND_TABLE.length);
  for (const [word, load] of COMMAND_TABLE) {
    assert.ok((await fastPath([word, "--help"])) === undefined, `${word} --help goes to the full parser`);
    const spec = await load();
    assert.ok(!parse(spec.parser, ["not-" + word]).success, `${word}'s parser takes only its own word`);
  }
});

Deno.test("fastPath() leaves help, usage errors, completion and unknown commands to the full command line", async () => {
  for (
    const args of [
      ["lint", "--help"],
      ["fmt", "-h"],
      ["lint", "--bogus"],
      ["lint", "--format", "xml"],
      ["lint", "--jobs", "many"],
      ["fmt", "--completion", "bash"],
      ["rules", "--bogus"],
      ["mcp", "--bogus"],
      ["nonsense"],
      [],
    ]
  ) {
    assert.equal(await fastPath(args), undefined, args.join(" "));
  }
});
