/**
 * Claude Code (`claude -p --output-format json`). Output is one object
 * `{type: "result", subtype, is_error, result, session_id, ...}`; a failure inside
 * the run is that object with `is_error: true` (and `api_error_status` for API
 * errors), an argument error goes to stderr.
 *
 * `--strict-mcp-config` without `--mcp-config` loads no MCP servers. Permissions
 * are skipped (headless runs would otherwise wait for approval forever); inside
 * poly's sandbox that is what confines it, and `IS_SANDBOX=1` tells claude so
 * (it refuses to skip permissions as root otherwise).
 *
 * @module
 */
import type { BuildOptions, EngineAdapter, FailureOutput, ParsedOutput } from "./_adapter.ts";
import { type JsonObject, jsonObjects, normalize, obj, str, strings } from "./_json.ts";

function buildArgs(o: BuildOptions): string[] {
  const args = ["-p", "--output-format", "json", "--strict-mcp-config"];
  if (o.model) args.push("--model", o.model);
  if (o.effort) args.push("--effort", o.effort);
  if (o.system) args.push("--append-system-prompt", o.system);
  args.push("--dangerously-skip-permissions");
  if (o.resume) args.push("--resume", o.resume);
  args.push("--", o.prompt);
  return args;
}

/** The terminal result object of a claude-style single-object output (last one wins). */
export function resultObject(stdout: string): JsonObject | undefined {
  const all = jsonObjects(stdout);
  return [...all].reverse().find((o) => str(o, "type") === "result" || "result" in o || "is_error" in o) ?? all.at(-1);
}

/** Parses claude-style `{result, session_id, is_error}` output (claude, cursor-agent). */
export function parseResultObject(stdout: string): ParsedOutput {
  const r = resultObject(stdout);
  if (!r) return { isError: false, errors: [] };
  const isError = r.is_error === true || str(r, "type") === "error";
  const errors = isError
    ? [str(r, "result") ?? "", ...strings(r.errors), str(obj(r.error), "message") ?? "", str(r, "message") ?? ""]
    : [];
  return {
    text: isError ? undefined : str(r, "result"),
    sessionId: str(r, "session_id") ?? str(r, "sessionId"),
    isError,
    errors: errors.filter(Boolean),
  };
}

const QUOTA = [
  /usage limit reached/,
  /you've reached your usage limit/,
  /you've hit your (?:session|weekly|opus|sonnet) limit/,
  /credit balance (?:is )?too low/,
];
const RATE = [/temporarily limiting requests/, /rate_limit_error/, /\b(?:http|status|error|rejected)[\s:(]*429\b/];

function classify(f: FailureOutput): "quota_exhausted" | "rate_limited" | null {
  const parsed = parseResultObject(f.stdout);
  if (f.exitCode === 0 && !parsed.isError) return null;
  const objects = jsonObjects(f.stdout);
  let rate = false;
  for (const o of objects) {
    const terminal = o.is_error === true || str(o, "type") === "error";
    if (str(o, "type") === "rate_limit_event" && str(obj(o.rate_limit_info), "status") === "rejected") {
      return "quota_exhausted";
    }
    if (terminal && o.api_error_status === 429) rate = true;
    if (str(obj(o.error), "type") === "rate_limit_error") rate = true;
  }
  const text = normalize([f.stderr, ...parsed.errors, objects.length ? "" : f.stdout].join("\n"));
  if (QUOTA.some((re) => re.test(text))) return "quota_exhausted";
  if (rate || RATE.some((re) => re.test(text))) return "rate_limited";
  return null;
}

/** The claude adapter. */
export const claude: EngineAdapter = {
  name: "claude",
  title: "Claude Code",
  capabilities: { web: true, ownReadOnly: false, image: false, systemPrompt: true },
  homeBinds: [
    { path: ".claude.json", rw: true },
    { path: ".claude/.credentials.json", rw: true },
    { path: ".claude/projects", rw: true, dir: true },
  ],
  authEnv: ["ANTHROPIC_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN", "ANTHROPIC_BASE_URL"],
  sandboxEnv: { IS_SANDBOX: "1", DISABLE_AUTOUPDATER: "1" },
  buildArgs,
  parse: parseResultObject,
  classify,
};
