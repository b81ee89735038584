/**
 * A `poly mcp`-like writer for the concurrency test: for `ms` milliseconds it
 * records sessions, calls, runs and ratings through the fleet's own store
 * functions (one statement each), plus gateway-style immediate transactions,
 * as fast as it can, with no busy timeout — a lock held by a reader fails it at
 * once. It prints how many sessions it wrote, and exits 1 on any error (a
 * "database is locked" included).
 *
 * Usage: deno run -P=test tests/tui/_writer.ts STATE_DB MS
 *
 * @module
 */
import { openStore } from "../../lib/store/mod.ts";
import { FleetStore } from "../../lib/fleet/store.ts";

const [path, ms] = Deno.args;
const db = openStore({ path });
// No waiting: a lock held by any reader would fail this writer at once.
db.exec("PRAGMA busy_timeout = 0");
const store = new FleetStore(db);
const until = Date.now() + Number(ms);
let n = 0;
try {
  while (Date.now() < until) {
    const handle = `codex:writer-${n}`;
    store.saveSession({
      handle,
      engine: "codex",
      sessionId: `writer-${n}`,
      tool: "delegate",
      cwd: "/work/app",
      readOnly: false,
      web: false,
      preview: `written by the writer, number ${n}`,
      level: 2,
    });
    store.recordCall({
      tool: "delegate",
      engine: "codex",
      handle,
      ok: true,
      outChars: 100,
      rawChars: 900,
      latencyMs: 5,
    });
    store.recordRun({ engine: "codex", tool: "delegate", outcome: "ok", latencyMs: 5 });
    if (n % 3 === 0) store.rate(handle, 1 + (n % 5));
    // A longer write transaction now and then, as the gateway's writes are.
    if (n % 10 === 0) {
      db.exec("BEGIN IMMEDIATE");
      db.prepare("UPDATE gateway_servers SET revision = revision + 1 WHERE name = 'docs'").run();
      db.exec("COMMIT");
    }
    n++;
  }
  db.close();
  console.log(String(n));
} catch (e) {
  console.error(`writer failed after ${n} sessions: ${e instanceof Error ? e.message : e}`);
  Deno.exit(1);
}
