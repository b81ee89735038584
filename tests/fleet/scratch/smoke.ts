import { fleetContext } from "../_helpers.ts";
import { delegate, explore, followUp } from "../../../lib/fleet/mod.ts";
const ctx = await fleetContext();
const t0 = performance.now();
const out = await delegate(ctx, { prompt: "hello [[probe:" + ctx.home + "/.codex/config.toml," + ctx.home + "/.codex/auth.json]]", level: 1 });
console.log(performance.now() - t0, out);
const f = await followUp(ctx, { session_id: out.session_id!, prompt: "and again" });
console.log(f);
try { console.log(await explore(ctx, { question: "where [[write]]" })); } catch (e) { console.log("ERR", e); }
