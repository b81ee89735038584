/**
 * cursor-agent (`cursor-agent -p --output-format json --model M`), opt-in with
 * `POLY_ENABLE_CURSOR=1`. Output is one object like claude's
 * `{type: "result", is_error, result, session_id}`. No system-prompt channel (a
 * persona prefixes the prompt) and no documented quota strings (failures pass
 * through as the engine's own).
 *
 * @module
 */
import type { BuildOptions, EngineAdapter } from "./_adapter.ts";
import { argSafe, withPrefix } from "./_adapter.ts";
import { parseResultObject } from "./claude.ts";

function buildArgs(o: BuildOptions): string[] {
  const args = ["-p", "--output-format", "json"];
  if (o.model) args.push("--model", o.model);
  if (o.resume) args.push("--resume", o.resume);
  args.push("--force", "--trust", argSafe(withPrefix(o.system, o.prompt)));
  return args;
}

/** The cursor-agent adapter. */
export const cursor: EngineAdapter = {
  name: "cursor",
  title: "cursor-agent",
  capabilities: { web: false, ownReadOnly: false, image: false, systemPrompt: false },
  homeBinds: [
    { path: ".config/cursor/auth.json", rw: true },
    { path: ".cursor/cli-config.json", rw: true },
  ],
  authEnv: ["CURSOR_API_KEY"],
  buildArgs,
  parse: parseResultObject,
  classify: () => null,
};
