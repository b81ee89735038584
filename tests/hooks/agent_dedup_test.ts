/**
 * The agent hook across calls in one session: one-shot redirects that fail open,
 * the preload reminder once, prompts never deduplicated, sessions kept apart —
 * in-process, and once more through the real `poly hook agent` process.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { polyCommand, runPoly } from "../_helpers/cli.ts";
import { loadSeen, runAgentHook, statePath } from "../../lib/hooks/mod.ts";
import { tempDir } from "../_helpers/temp.ts";

type Json = Record<string, unknown>;

function event(name: string, extra: Json = {}, session = "s-1"): string {
  return JSON.stringify({ session_id: session, cwd: "/tmp", hook_event_name: name, ...extra });
}

function pre(tool: string, input: Json, session = "s-1"): string {
  return event("PreToolUse", { tool_name: tool, tool_input: input }, session);
}

function kind(stdout: string): "silent" | "deny" | "context" {
  if (stdout === "") return "silent";
  const out = JSON.parse(stdout).hookSpecificOutput;
  return out.permissionDecision === "deny" ? "deny" : "context";
}

async function withState(fn: (hook: (input: string, env?: Json) => Promise<string>, dir: string) => Promise<void>) {
  const dir = await tempDir({ prefix: "poly-hook-dedup-" });
  try {
    await fn(
      async (input, env = {}) => (await runAgentHook(input, { env: (k) => env[k] as string, stateDir: dir })).stdout,
      dir,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("runAgentHook() redirects once, then lets the identical call through (fail-open)", async () => {
  await withState(async (hook) => {
    const call = pre("WebSearch", { query: "deno permissions" });
    equal(kind(await hook(call)), "deny");
    equal(kind(await hook(call)), "silent");
    equal(kind(await hook(call)), "silent");
  });
});

Deno.test("runAgentHook() saves the dedup key before it emits the redirect", async () => {
  await withState(async (hook, dir) => {
    await hook(pre("Bash", { command: "ruff format ." }));
    deepEqual([...await loadSeen(statePath(dir, "s-1"))].sort(), ["cli:ruff", "preload"]);
  });
});

Deno.test("runAgentHook() carries the preload reminder on the first fire only", async () => {
  await withState(async (hook) => {
    const first = await hook(pre("Edit", { file_path: "/tmp/a.py" }));
    ok(first.includes("ToolSearch"), "first fire carries the preload");
    const second = await hook(pre("WebFetch", { url: "https://example.com" }));
    equal(kind(second), "deny");
    ok(!second.includes("select:"), "the preload is not repeated");
    equal(kind(await hook(pre("Grep", { pattern: "x" }))), "silent", "Grep only preloads, already done");
  });
});

Deno.test("runAgentHook() marks the preload at SessionStart and answers every SessionStart", async () => {
  await withState(async (hook) => {
    equal(kind(await hook(event("SessionStart", { source: "startup" }))), "context");
    equal(kind(await hook(pre("Glob", { pattern: "*.ts" }))), "silent");
    const web = await hook(pre("WebSearch", { query: "x" }));
    ok(!web.includes("select:"), "no preload after SessionStart");
    equal(
      kind(await hook(event("SessionStart", { source: "compact" }))),
      "context",
      "context is re-sent after compaction",
    );
  });
});

Deno.test("runAgentHook() fires per program and per file, not once for everything", async () => {
  await withState(async (hook) => {
    equal(kind(await hook(pre("Bash", { command: "ruff check ." }))), "deny");
    equal(kind(await hook(pre("Bash", { command: "ruff check src" }))), "silent", "ruff again: allowed");
    equal(kind(await hook(pre("Bash", { command: "eslint --fix src" }))), "deny", "another program: its own redirect");
    equal(kind(await hook(pre("Bash", { command: "git commit -m x" }))), "context");
    equal(kind(await hook(pre("Bash", { command: "git push" }))), "silent", "artifact nudge once per session");
  });
});

Deno.test("runAgentHook() never deduplicates UserPromptSubmit", async () => {
  await withState(async (hook) => {
    const prompt = event("UserPromptSubmit", { prompt: "format the repo" });
    const a = await hook(prompt);
    const b = await hook(prompt);
    equal(kind(a), "context");
    equal(a, b);
  });
});

Deno.test("runAgentHook() keeps sessions apart", async () => {
  await withState(async (hook) => {
    equal(kind(await hook(pre("WebSearch", { query: "x" }, "s-1"))), "deny");
    equal(kind(await hook(pre("WebSearch", { query: "x" }, "s-2"))), "deny");
    equal(kind(await hook(pre("WebSearch", { query: "x" }, "s/1"))), "deny", "sanitised ids do not collide");
  });
});

Deno.test("runAgentHook() in nudge mode never denies, and still deduplicates", async () => {
  await withState(async (hook) => {
    const env = { POLY_HOOK_MODE: "nudge" };
    equal(kind(await hook(pre("WebSearch", { query: "x" }), env)), "context");
    equal(kind(await hook(pre("WebSearch", { query: "x" }), env)), "silent");
  });
});

Deno.test("runAgentHook() downgrades a redirect to a nudge when the key cannot be saved", async () => {
  const dir = await tempDir({ prefix: "poly-hook-dedup-" });
  try {
    const blocked = join(dir, "not-a-dir");
    await Deno.writeTextFile(blocked, "a file where the state directory should be");
    const result = await runAgentHook(pre("WebSearch", { query: "x" }), { env: () => undefined, stateDir: blocked });
    equal(kind(result.stdout), "context", "a deny that cannot be remembered would repeat forever");
    ok(result.debug.some((d) => d.includes("not redirecting")));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runAgentHook() ignores a corrupt state file instead of failing", async () => {
  await withState(async (hook, dir) => {
    await Deno.writeTextFile(statePath(dir, "s-1"), "{not json");
    equal(kind(await hook(pre("WebSearch", { query: "x" }))), "deny");
  });
});

Deno.test("poly hook agent: deny, then allow, in one session; exit 0 and silent on bad input", async () => {
  const dir = await tempDir({ prefix: "poly-hook-e2e-" });
  try {
    const env = { POLY_HOOK_STATE_DIR: dir };
    const call = pre("Bash", { command: "npx biome format --write src" }, "e2e-session");
    const first = await runPoly(["hook", "agent", "--tool-prefix", "mcp__plugin_poly_poly__"], { stdin: call, env });
    equal(first.code, 0);
    equal(kind(first.stdout), "deny");
    ok(first.stdout.includes("mcp__plugin_poly_poly__format_write"), first.stdout);
    const second = await runPoly(["hook", "agent"], { stdin: call, env });
    deepEqual([second.code, second.stdout], [0, ""]);

    const bad = await runPoly(["hook", "agent"], { stdin: "{oops", env });
    deepEqual([bad.code, bad.stdout, bad.stderr], [0, "", ""]);
    const debug = await runPoly(["hook", "agent"], { stdin: "{oops", env: { ...env, POLY_DEBUG: "1" } });
    deepEqual([debug.code, debug.stdout], [0, ""]);
    ok(debug.stderr.includes("malformed hook input"), debug.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("poly hook agent keeps its state in the OS temp dir under the program's own permissions", async () => {
  const session = `tmpdir-${crypto.randomUUID()}`;
  const input = pre("WebSearch", { query: "x" }, session);
  // TMPDIR set: the state goes there.
  const dir = await tempDir({ prefix: "poly-hook-tmpdir-" });
  try {
    const r = await runPoly(["hook", "agent"], { stdin: input, env: { TMPDIR: dir } });
    equal(kind(r.stdout), "deny", r.stderr);
    ok((await loadSeen(statePath(dir, session))).has("web"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  // No TMPDIR at all (node:os would read TMP/TEMP, which poly may not): /tmp on POSIX.
  if (Deno.build.os === "windows") return;
  const [exe, ...args] = polyCommand();
  const keep = ["PATH", "HOME", "DENO_DIR", "XDG_CACHE_HOME"].flatMap((k) => {
    const v = Deno.env.get(k);
    return v === undefined ? [] : [[k, v] as const];
  });
  const child = new Deno.Command(exe, {
    args: [...args, "hook", "agent"],
    clearEnv: true,
    env: Object.fromEntries([...keep, ["POLY_DEBUG", "1"]]),
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(input));
  await writer.close();
  const out = await child.output();
  const stdout = new TextDecoder().decode(out.stdout);
  const stateFile = statePath("/tmp", session);
  try {
    equal(out.code, 0);
    equal(kind(stdout), "deny", new TextDecoder().decode(out.stderr));
    ok((await loadSeen(stateFile)).has("web"));
  } finally {
    await Deno.remove(stateFile).catch(() => {});
  }
});
