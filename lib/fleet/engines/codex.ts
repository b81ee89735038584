/**
 * Codex CLI (`codex exec --json`). Output is JSON lines: the session id is the
 * `thread_id` of `thread.started`; the answer is the text of the last
 * `item.completed` whose item type is `agent_message`; failures are
 * `{"type":"error","message"}` and `{"type":"turn.failed","error":{"message"}}`.
 *
 * Resume: `codex exec resume [flags] -- <id> <prompt>`. Read-only: inside poly's
 * sandbox the workspace is bound read-only and codex's own sandbox is bypassed
 * (a namespace cannot nest inside bwrap); with poly's sandbox off, `-s read-only`
 * (`-c sandbox_mode="read-only"` on resume, whose parser has no `-s`).
 *
 * @module
 */
import type { BuildOptions, EngineAdapter, FailureOutput, ParsedOutput } from "./_adapter.ts";
import { jsonObjects, normalize, obj, str } from "./_json.ts";

/** Encodes a TOML basic string for `-c key=value`. */
export function tomlString(s: string): string {
  return `"${
    s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n").replace(/\r/g, "").replace(/\t/g, "\\t")
  }"`;
}

function buildArgs(o: BuildOptions): string[] {
  const args = o.resume ? ["exec", "resume"] : ["exec"];
  args.push("--json", "--skip-git-repo-check");
  // `codex exec resume` has no `-s`/`--sandbox` (real codex: "unexpected argument '-s'"); the
  // config override sets the same sandbox mode for both.
  if (o.readOnly && !o.sandboxed) args.push(...(o.resume ? ["-c", 'sandbox_mode="read-only"'] : ["-s", "read-only"]));
  else args.push("--dangerously-bypass-approvals-and-sandbox");
  if (o.web) args.push("-c", "tools.web_search=true");
  if (o.model) args.push("-m", o.model);
  if (o.effort) args.push("-c", `model_reasoning_effort=${tomlString(o.effort)}`);
  if (o.system) args.push("-c", `developer_instructions=${tomlString(o.system)}`);
  for (const image of o.images ?? []) args.push("-i", image);
  args.push("--");
  if (o.resume) args.push(o.resume);
  args.push(o.prompt);
  return args;
}

function parse(stdout: string): ParsedOutput {
  let text: string | undefined;
  let sessionId: string | undefined;
  const errors: string[] = [];
  let failed = false;
  for (const ev of jsonObjects(stdout)) {
    const type = str(ev, "type");
    if (type === "thread.started") sessionId = str(ev, "thread_id") ?? sessionId;
    else if (type === "item.completed") {
      const item = obj(ev.item);
      if (str(item, "type") === "agent_message" && str(item, "text") !== undefined) text = str(item, "text");
    } else if (type === "error") errors.push(str(ev, "message") ?? "");
    else if (type === "turn.failed") {
      failed = true;
      errors.push(str(obj(ev.error), "message") ?? "");
    }
  }
  return { text, sessionId, isError: failed, errors: errors.filter(Boolean) };
}

const QUOTA = [/you've hit your usage limit/, /out of credits/, /spend cap/, /usage_limit_exceeded/, /quota_exceeded/];
const RATE = [/rate limit exceeded/, /rate_limit_exceeded/];

function classify(f: FailureOutput): "quota_exhausted" | "rate_limited" | null {
  const objects = jsonObjects(f.stdout);
  const parsed = parse(f.stdout);
  if (f.exitCode === 0 && !parsed.isError) return null;
  const structured = objects.filter((o) => ["error", "turn.failed"].includes(str(o, "type") ?? ""));
  const text = normalize(
    [f.stderr, ...parsed.errors, JSON.stringify(structured), objects.length ? "" : f.stdout].join("\n"),
  );
  if (QUOTA.some((re) => re.test(text))) return "quota_exhausted";
  if (RATE.some((re) => re.test(text))) return "rate_limited";
  return null;
}

/** The codex adapter. */
export const codex: EngineAdapter = {
  name: "codex",
  title: "Codex CLI",
  capabilities: { web: true, ownReadOnly: true, image: true, systemPrompt: true },
  homeBinds: [
    { path: ".codex/auth.json", rw: true },
    { path: ".codex/sessions", rw: true, dir: true },
  ],
  authEnv: ["OPENAI_API_KEY", "CODEX_API_KEY", "OPENAI_BASE_URL"],
  buildArgs,
  parse,
  classify,
};
