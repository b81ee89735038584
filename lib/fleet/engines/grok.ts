/**
 * Grok CLI (`grok --single PROMPT --output-format json`). Output is one object:
 * `{text, sessionId}` on success (`{result, session_id}` accepted too); a failure
 * is `{"type":"error","message"}` or a result with `is_error: true` and `errors[]`,
 * where the HTTP status arrives as JSON serialised inside the message
 * (`{"message": "API error (status 402 Payment Required): ...", "http_status": 402}`).
 *
 * @module
 */
import type { BuildOptions, EngineAdapter, FailureOutput, ParsedOutput } from "./_adapter.ts";
import { argSafe, withPrefix } from "./_adapter.ts";
import { httpStatuses, jsonObjects, normalize, str, strings } from "./_json.ts";

function buildArgs(o: BuildOptions): string[] {
  const args = ["--single", argSafe(withPrefix(o.system, o.prompt)), "--output-format", "json"];
  if (o.model) args.push("-m", o.model);
  if (o.effort) args.push("--effort", o.effort);
  args.push("--always-approve");
  if (o.resume) args.push("-r", o.resume);
  return args;
}

function parse(stdout: string): ParsedOutput {
  const all = jsonObjects(stdout);
  const r = all.at(-1);
  if (!r) return { isError: false, errors: [] };
  const isError = r.is_error === true || str(r, "type") === "error";
  const errors = all.flatMap((o) =>
    o.is_error === true || str(o, "type") === "error" ? [str(o, "message") ?? "", ...strings(o.errors)] : []
  );
  return {
    text: isError ? undefined : str(r, "text") ?? str(r, "result"),
    sessionId: str(r, "sessionId") ?? str(r, "session_id"),
    isError,
    errors: errors.filter(Boolean),
  };
}

function classify(f: FailureOutput): "quota_exhausted" | "rate_limited" | null {
  const parsed = parse(f.stdout);
  if (f.exitCode === 0 && !parsed.isError) return null;
  const objects = jsonObjects(f.stdout);
  const statuses = httpStatuses(objects.filter((o) => o.is_error === true || str(o, "type") === "error"));
  const text = normalize([f.stderr, ...parsed.errors, objects.length ? "" : f.stdout].join("\n"));
  if (statuses.includes(402) || /usage balance exhausted/.test(text) || /\bstatus 402\b/.test(text)) {
    return "quota_exhausted";
  }
  if (statuses.includes(429) || /\bstatus 429\b/.test(text) || /\bhttp 429\b/.test(text)) return "rate_limited";
  return null;
}

/** The grok adapter. */
export const grok: EngineAdapter = {
  name: "grok",
  title: "Grok CLI",
  capabilities: { web: false, ownReadOnly: false, image: true, systemPrompt: false },
  homeBinds: [
    { path: ".grok/auth.json", rw: true },
    { path: ".grok/user-settings.json", rw: true },
    { path: ".grok/sessions", rw: true, dir: true },
  ],
  authEnv: ["XAI_API_KEY", "GROK_API_KEY"],
  buildArgs,
  parse,
  classify,
};
