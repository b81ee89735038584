import assert from "node:assert/strict";
import { matches, parseFilter } from "../../tui/filter.ts";

const FIELDS = {
  engine: (r: { engine: string; status: string | null; tool: string }) => r.engine,
  status: (r: { engine: string; status: string | null; tool: string }) => r.status,
  tool: (r: { engine: string; status: string | null; tool: string }) => r.tool,
};
const ROWS = [
  { engine: "codex", status: "ok", tool: "delegate" },
  { engine: "claude", status: "engine_failed", tool: "explore" },
  { engine: "codex", status: null, tool: "fan_out" },
];

Deno.test("parseFilter() splits field terms, negations and free words", () => {
  assert.deepEqual(parseFilter("Engine:Codex -status:ok word"), [
    { field: "engine", value: "codex", negate: false },
    { field: "status", value: "ok", negate: true },
    { value: "word", negate: false },
  ]);
});

Deno.test("matches() requires every term, by field or anywhere", () => {
  const pick = (q: string) => ROWS.filter((r) => matches(r, q, FIELDS)).map((r) => r.tool);
  assert.deepEqual(pick(""), ["delegate", "explore", "fan_out"]);
  assert.deepEqual(pick("engine:codex"), ["delegate", "fan_out"]);
  assert.deepEqual(pick("engine:codex -status:ok"), ["fan_out"]);
  assert.deepEqual(pick("failed"), ["explore"]);
  assert.deepEqual(pick("tool:de engine:codex"), ["delegate"]);
  assert.deepEqual(pick("colour:red"), []);
});
