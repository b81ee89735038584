import assert from "node:assert/strict";
import { join } from "node:path";
import { openStore } from "../../lib/store/mod.ts";
import { FleetStore } from "../../lib/fleet/store.ts";
import { fixedClock } from "../../tui/clock.ts";
import { createLoader } from "../../tui/data/snapshot.ts";
import { renderOnce } from "../../tui/once.ts";
import { callsPane } from "../../tui/panes/calls.ts";
import { tempDir } from "../_helpers/temp.ts";

/** The Calls pane as --once prints it, over a state database holding what `record` writes. */
async function callsText(record: (store: FleetStore) => void): Promise<string> {
  const dir = await tempDir({ prefix: "poly-dash-calls-" });
  const statePath = join(dir, "poly.db");
  const db = openStore({ path: statePath });
  try {
    record(new FleetStore(db));
  } finally {
    db.close();
  }
  const clock = fixedClock(Date.now());
  const loader = createLoader({
    statePath,
    cacheHome: join(dir, "cache"),
    clock,
    hostTools: () => Promise.resolve([]),
  });
  try {
    return renderOnce(await loader.load(), { width: 100, clock, panes: [callsPane] });
  } finally {
    loader.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("Calls compares returned characters with raw engine output only over the calls that had some", async () => {
  const text = await callsText((s) => {
    // A statistics call returns characters but runs no engine; a delegate call returns less than its engine wrote.
    s.recordCall({ tool: "bridge_stats", ok: true, outChars: 1500, rawChars: 0, latencyMs: 40 });
    s.recordCall({ tool: "delegate", engine: "codex", ok: true, outChars: 1700, rawChars: 2900, latencyMs: 9000 });
  });
  assert.doesNotMatch(text, /returned 3\.2k of 2\.9k/, "3.2k returned were not all engine output");
  assert.match(text, /^2 calls · 0 failed · 3\.2k chars returned$/m);
  assert.match(text, /^1 engine call: 2\.9k raw chars in, 1\.7k out \(41% kept out of context\)$/m);
  assert.match(text, /^bridge_stats +1 +0 +1\.5k +0 +– /m);
  assert.match(text, /^delegate +1 +0 +1\.7k +2\.9k +41% /m);
});

Deno.test("Calls says so when more came back than the engine wrote, instead of 0% kept out", async () => {
  const text = await callsText((s) => {
    s.recordCall({ tool: "decide", engine: "openrouter", ok: true, outChars: 420, rawChars: 300, latencyMs: 900 });
  });
  assert.match(
    text,
    /^1 engine call: 300 raw chars in, 420 out \(none kept out: more out than in\)$/m,
  );
  assert.match(text, /^decide +1 +0 +420 +300 +none /m);
  assert.doesNotMatch(text, /0% kept/);
});

Deno.test("Calls shows the median latency of an engine's successful runs, saying how few there are", async () => {
  const now = Date.now();
  const text = await callsText((s) => {
    s.recordRun({ engine: "codex", tool: "delegate", outcome: "ok", latencyMs: 10_000, atMs: now - 3600_000 });
    s.recordRun({ engine: "codex", tool: "delegate", outcome: "ok", latencyMs: 20_000, atMs: now - 1800_000 });
    s.recordRun({ engine: "grok", tool: "web_lookup", outcome: "timeout", latencyMs: 120_000, atMs: now - 600_000 });
    for (let i = 0; i < 3; i++) {
      s.recordRun({ engine: "claude", tool: "explore", outcome: "ok", latencyMs: 30_000 + i * 1000, atMs: now - i });
    }
  });
  assert.match(text, /^ {2}codex +2 runs · 100% ok · median 15\.0s \(2 ok runs\)$/m);
  assert.match(text, /^ {2}claude +3 runs · 100% ok · median 31\.0s$/m);
  assert.match(text, /^ {2}grok +1 run · 0% ok · no successful run to time$/m);
  assert.doesNotMatch(text, /median –/);
});
