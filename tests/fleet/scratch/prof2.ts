import { fleetContext, FAKE_BIN } from "../_helpers.ts";
import { ADAPTERS } from "../../../lib/fleet/engines/mod.ts";
import { planSandbox, resolveBwrap, bwrapArgs } from "../../../lib/fleet/sandbox.ts";
import { runProcess } from "../../../lib/fleet/process.ts";
import { requireEngine } from "../../../lib/fleet/availability.ts";
import { join } from "node:path";
const ctx = await fleetContext();
const fake = join(FAKE_BIN, "codex");
const args = ADAPTERS.codex.buildArgs({ prompt: "x", readOnly: false, web: false, sandboxed: true });
const bwrap = await resolveBwrap(undefined, ctx.env("PATH"));
const spec = await planSandbox({ adapter: ADAPTERS.codex, binary: { path: fake, real: fake }, workspace: ctx.root, readOnly: false, home: ctx.home, toolchains: ctx.settings.toolchains, extra: [], env: ctx.env });
const full = [...bwrapArgs(spec), "--", fake, ...args];
const env = { HOME: ctx.home, PATH: ctx.env("PATH")! };
const med = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1].toFixed(1);
const A: number[] = [], B: number[] = [], C: number[] = [], D: number[] = [];
for (let i = 0; i < 15; i++) {
  let t = performance.now();
  await new Deno.Command(bwrap, { args: full, cwd: ctx.root, env, clearEnv: true, stdin: "null", stdout: "piped", stderr: "piped" }).output();
  A.push(performance.now() - t);
  t = performance.now();
  await runProcess({ cmd: bwrap, args: full, cwd: ctx.root, env: { PATH: env.PATH }, clearEnv: true, timeoutMs: 60000, maxStdoutBytes: 1 << 25 });
  B.push(performance.now() - t);
  t = performance.now();
  await requireEngine(ctx, "codex", {}, "x");
  await planSandbox({ adapter: ADAPTERS.codex, binary: { path: fake, real: fake }, workspace: ctx.root, readOnly: false, home: ctx.home, toolchains: ctx.settings.toolchains, extra: [], env: ctx.env });
  C.push(performance.now() - t);
  t = performance.now();
  await new Deno.Command(bwrap, { args: full, cwd: ctx.root, env, clearEnv: true, stdin: "null", stdout: "piped", stderr: "piped", detached: true }).output();
  D.push(performance.now() - t);
}
console.log("output()", med(A), "runProcess", med(B), "plan", med(C), "output() detached", med(D));
const { delegate } = await import("../../../lib/fleet/ops/delegate.ts");
const E: number[] = [], F: number[] = [];
for (let i = 0; i < 15; i++) {
  let t = performance.now();
  await runProcess({ cmd: bwrap, args: full, cwd: ctx.root, env: { PATH: env.PATH }, clearEnv: true, timeoutMs: 60000, maxStdoutBytes: 1 << 25 });
  E.push(performance.now() - t);
  t = performance.now();
  await delegate(ctx, { prompt: "x", level: 1 });
  F.push(performance.now() - t);
}
console.log("runProcess", med(E), "delegate", med(F));
