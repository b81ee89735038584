/**
 * OpenCode (`opencode run --format json`). Output is JSON events, one per line
 * (`step_start`, `text`, `tool_use`, `step_finish`, `error`), each with the
 * session id in `sessionID`; the answer is the concatenation of the `text` parts.
 * A failure is an `error` event `{error: {name, data: {message}}}`.
 *
 * Models must be `provider/model` (e.g. `openrouter/inception/mercury-2`); effort
 * maps to `--variant`. OpenCode has no additive system-prompt channel, so a
 * persona prefixes the prompt. No quota strings are documented for it: every
 * failure passes through as the engine's own.
 *
 * @module
 */
import { FleetError } from "../errors.ts";
import type { BuildOptions, EngineAdapter, ParsedOutput } from "./_adapter.ts";
import { withPrefix } from "./_adapter.ts";
import { jsonObjects, obj, str } from "./_json.ts";

function checkModel(model: string | undefined): void {
  if (model === undefined) {
    throw new FleetError(
      "invalid_request",
      'The opencode engine needs a model of the form "provider/model": pass model, e.g. "openrouter/inception/mercury-2"',
      { engine: "opencode" },
    );
  }
  const at = model.indexOf("/");
  if (at <= 0 || at === model.length - 1) {
    throw new FleetError(
      "invalid_request",
      `Invalid opencode model "${model}": expected "provider/model", e.g. "openrouter/inception/mercury-2"`,
      { engine: "opencode" },
    );
  }
}

function buildArgs(o: BuildOptions): string[] {
  const args = ["run", "--format", "json"];
  if (o.model) args.push("-m", o.model);
  if (o.effort) args.push("--variant", o.effort);
  if (o.resume) args.push("-s", o.resume);
  args.push("--auto", "--", withPrefix(o.system, o.prompt));
  return args;
}

function parse(stdout: string): ParsedOutput {
  let text = "";
  let sawText = false;
  let sessionId: string | undefined;
  const errors: string[] = [];
  for (const ev of jsonObjects(stdout)) {
    const part = obj(ev.part);
    sessionId ??= str(ev, "sessionID") ?? str(part, "sessionID");
    const type = str(ev, "type");
    if (type === "text" && str(part, "text") !== undefined) {
      text += str(part, "text");
      sawText = true;
    } else if (type === "error") {
      const err = obj(ev.error);
      errors.push(str(obj(err?.data), "message") ?? str(err, "message") ?? str(err, "name") ?? "unknown error");
    }
  }
  return { text: sawText ? text : undefined, sessionId, isError: errors.length > 0, errors };
}

/** The opencode adapter. */
export const opencode: EngineAdapter = {
  name: "opencode",
  title: "OpenCode",
  capabilities: { web: false, ownReadOnly: false, image: false, systemPrompt: false },
  homeBinds: [
    { path: ".local/share/opencode", rw: true, dir: true },
    { path: ".local/state/opencode", rw: true, dir: true },
  ],
  authEnv: ["OPENROUTER_API_KEY"],
  checkModel,
  buildArgs,
  parse,
  classify: () => null,
};
