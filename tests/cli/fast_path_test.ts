/**
 * The fast path of main.ts: `poly lint` / `poly fmt` parsed with their own command
 * and optique's core only must mean exactly what the full command line makes of
 * the same arguments, and must step aside for anything the full parser prints
 * (help, usage errors, completion).
 */
import assert from "node:assert/strict";
import { fastPath } from "../../main.ts";
import { map, or, parse } from "../../lib/cli/_optique.ts";
import { COMMANDS } from "../../lib/cli/commands/mod.ts";

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

Deno.test("fastPath() leaves help, usage errors, completion and other commands to the full command line", async () => {
  for (
    const args of [
      ["lint", "--help"],
      ["fmt", "-h"],
      ["lint", "--bogus"],
      ["lint", "--format", "xml"],
      ["lint", "--jobs", "many"],
      ["fmt", "--completion", "bash"],
      ["rules", "list"],
      ["mcp", "--http", "0"],
      [],
    ]
  ) {
    assert.equal(await fastPath(args), undefined, args.join(" "));
  }
});
