/**
 * ruff's warmer (lib/engines/warm.ts): started for a kept run's changed Python files only, it checks (or formats) its
 * sample on a thread of its own, and stops once the run's own ruff is loaded or the plan leaves ruff out.
 */
import assert from "node:assert/strict";
import { engineLoaded, enginesPlanned, warmerState, warmForChanged } from "../../lib/engines/warm.ts";

/** Waits until ruff's warmer is done with its sample (or gone); its state then. */
async function settled(): Promise<string | undefined> {
  for (let i = 0; i < 600 && warmerState("ruff") === "warming"; i++) await new Promise((r) => setTimeout(r, 50));
  return warmerState("ruff");
}

Deno.test("a changed Python file starts ruff's warmer: its sample runs; it stops once the run's ruff loads", async () => {
  try {
    warmForChanged("lint", ["/repo/a.ts", "/repo/pkg/b.py"]);
    assert.equal(warmerState("ruff"), "warming");
    assert.equal(await settled(), "warm"); // the sample was checked: an error would have stopped the worker
    engineLoaded("ruff");
    assert.equal(warmerState("ruff"), undefined);
  } finally {
    enginesPlanned(() => new Set());
  }
});

Deno.test("poly fmt warms ruff's formatter for a changed stub", async () => {
  try {
    warmForChanged("fmt", ["/repo/types.pyi"]);
    assert.equal(await settled(), "warm");
  } finally {
    enginesPlanned(() => new Set());
  }
  assert.equal(warmerState("ruff"), undefined);
});

Deno.test("loaded before the sample is done, the warmer goes on until it is, then stops", async () => {
  try {
    warmForChanged("lint", ["/repo/a.py"]);
    engineLoaded("ruff");
    assert.equal(warmerState("ruff"), "warming");
    assert.equal(await settled(), undefined);
  } finally {
    enginesPlanned(() => new Set());
  }
});

Deno.test("no Python among the changes, or another command: no warmer; a plan without ruff stops one", () => {
  warmForChanged("lint", ["/repo/a.ts", "/repo/b.md"]);
  warmForChanged("rules", ["/repo/a.py"]);
  assert.equal(warmerState("ruff"), undefined);
  warmForChanged("lint", ["/repo/tool.pyw"]);
  enginesPlanned(() => new Set(["ruff"]));
  assert.equal(warmerState("ruff"), "warming");
  enginesPlanned(() => new Set(["biome", "ast-grep"]));
  assert.equal(warmerState("ruff"), undefined);
});
