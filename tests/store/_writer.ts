/**
 * One of several processes writing the fleet tables of one state database at
 * once (see fleet_store_test.ts). Args: database path, writer id, count.
 */
import { openStore } from "../../lib/store/mod.ts";
import { FleetStore } from "../../lib/fleet/store.ts";

const [path, id, count] = Deno.args;
const store = new FleetStore(openStore({ path }));
for (let i = 0; i < Number(count); i++) {
  store.recordRun({ engine: "codex", tool: "delegate", outcome: i % 4 === 0 ? "error" : "ok", latencyMs: 10 + i });
  store.recordCall({ tool: "delegate", engine: "codex", ok: true, outChars: 10, rawChars: 100, latencyMs: 5 });
  store.saveSession({
    handle: `codex:shared`,
    engine: "codex",
    sessionId: "shared",
    tool: "delegate",
    cwd: "/w",
    readOnly: false,
    web: false,
    preview: `writer ${id}`,
  });
  store.saveSession({
    handle: `codex:${id}-${i}`,
    engine: "codex",
    sessionId: `${id}-${i}`,
    tool: "delegate",
    cwd: "/w",
    readOnly: false,
    web: false,
    preview: "",
  });
  if (i % 10 === 0) store.rate("codex:shared", 1 + (i % 5));
}
store.db.close();
