/**
 * The fleet tools as ToolDefs (the twelve, and bridge_stats_export): registered, with the levels and
 * annotations hosts rely on, and schemas that accept what the handlers return.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { TOOLS } from "../../../tools/mod.ts";

const LEVELS: Record<string, "read" | "act"> = {
  explore: "read",
  read_slice: "read",
  web_lookup: "read",
  bridge_stats: "read",
  bridge_stats_export: "act",
  delegate: "act",
  fast_delegate: "act",
  run_filtered: "act",
  decide: "act",
  generate_image: "act",
  fan_out: "act",
  follow_up: "act",
  rate: "act",
};

Deno.test("every fleet tool is registered with its level and annotations", () => {
  for (const [name, level] of Object.entries(LEVELS)) {
    const def = TOOLS.find((t) => t.name === name);
    assert.ok(def, `${name} is not in tools/mod.ts`);
    assert.equal(def.level, level, name);
    const engineBacked = !["bridge_stats", "bridge_stats_export", "rate"].includes(name);
    assert.equal(def.annotations.openWorldHint, engineBacked, `${name} openWorldHint`);
    if (level === "read") assert.equal(def.annotations.readOnlyHint, true, name);
    if (["delegate", "fast_delegate", "run_filtered", "follow_up", "generate_image"].includes(name)) {
      assert.equal(def.annotations.destructiveHint, true, name);
      assert.equal(def.task, true, `${name} runs as a task`);
    }
    assert.ok(def.description.length > 80, `${name} needs a real description`);
  }
});

Deno.test("input schemas refuse bad calls; output schemas accept success and error documents", () => {
  const input = (name: string) => z.object(TOOLS.find((t) => t.name === name)!.inputSchema);
  const output = (name: string) => TOOLS.find((t) => t.name === name)!.outputSchema;
  assert.equal(input("delegate").safeParse({ prompt: "x", level: 6 }).success, false);
  assert.equal(input("delegate").safeParse({ prompt: "x", level: 2, engine: "gemini" }).success, false);
  assert.equal(input("delegate").safeParse({ prompt: "x", level: 2, agent: { prompt: "be terse" } }).success, true);
  assert.equal(input("read_slice").safeParse({ files: [], want: "x" }).success, false);
  assert.equal(input("rate").safeParse({ session_id: "codex:1", score: 0 }).success, false);
  assert.equal(input("generate_image").safeParse({ prompt: "x", engine: "claude" }).success, false);
  assert.equal(input("decide").safeParse({ question: "q", options: ["only"] }).success, false);
  // Every result carries the identity block (tools/_identity.ts).
  const poly = {
    version: "0.1.0",
    build_id: "dev",
    channel: "dev",
    executable: "/x/poly",
    pid: 1,
    engines_digest: "d",
    engines: {},
  };
  const error = {
    error: { kind: "quota_exhausted", message: "m", engine: "codex", usable_engines: ["claude"] },
    poly,
  };
  for (const name of Object.keys(LEVELS)) assert.equal(output(name).safeParse(error).success, true, name);
  assert.equal(
    output("delegate").safeParse({ answer: "a", session_id: "codex:1", engine: "codex", level: 1, latency_ms: 3, poly })
      .success,
    true,
  );
});
