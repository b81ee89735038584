/**
 * Named personas (`agent: "reviewer"`) and inline ones (`agent: {prompt}`).
 *
 * A name is a plain file name (letters, digits, `.`, `_`, `-`): anything that
 * could walk out of a persona folder is refused. `<name>.md` is looked up in
 * `POLY_AGENT_PATHS` (and `[fleet] agent_paths`), then `<cwd>/.claude/agents`,
 * `<root>/.claude/agents`, `~/.claude/agents`; a file whose real path leaves its
 * folder (a symlink out) is refused too. YAML front matter is dropped; the body
 * is the persona's system prompt. Personas are read on the host and injected
 * into the engine's prompt: persona folders are never mounted in the sandbox.
 *
 * @module
 */
import { join, relative, sep } from "node:path";
import type { FleetContext } from "./context.ts";
import { FleetError } from "./errors.ts";
import type { Persona } from "./types.ts";

/** A persona as a call names it. */
export type PersonaInput = string | { prompt: string; name?: string };

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const MAX_PROMPT = 32_000;

/** The folders searched for named personas, in order. */
export function personaRoots(ctx: FleetContext, cwd: string): string[] {
  const roots = [
    ...ctx.settings.agentPaths,
    join(cwd, ".claude", "agents"),
    join(ctx.root, ".claude", "agents"),
    join(ctx.settings.home, ".claude", "agents"),
  ];
  return [...new Set(roots)];
}

/** Drops YAML front matter (`---` … `---`) and returns the body. */
export function personaBody(text: string): string {
  const t = text.replace(/^\uFEFF/, "");
  if (t.startsWith("---")) {
    const end = t.indexOf("\n---", 3);
    if (end !== -1) {
      const after = t.indexOf("\n", end + 4);
      return (after === -1 ? "" : t.slice(after + 1)).trim();
    }
  }
  return t.trim();
}

async function realInside(file: string, root: string): Promise<boolean> {
  try {
    const [realFile, realRoot] = await Promise.all([Deno.realPath(file), Deno.realPath(root)]);
    const rel = relative(realRoot, realFile);
    return rel !== "" && !rel.startsWith("..") && !rel.startsWith(sep);
  } catch {
    return false;
  }
}

/** Resolves a persona, or undefined when the call names none. */
export async function resolvePersona(
  ctx: FleetContext,
  cwd: string,
  input: PersonaInput | undefined,
): Promise<Persona | undefined> {
  if (input === undefined) return undefined;
  if (typeof input !== "string") {
    const prompt = input.prompt.trim();
    if (!prompt) throw new FleetError("invalid_request", "An inline persona needs a non-empty prompt");
    if (prompt.length > MAX_PROMPT) {
      throw new FleetError("invalid_request", `An inline persona is limited to ${MAX_PROMPT} characters`);
    }
    return { name: input.name ?? "inline", prompt };
  }
  const name = input.replace(/\.md$/, "");
  if (!NAME.test(name) || name.includes("..")) {
    throw new FleetError(
      "invalid_request",
      `Persona name "${input}" refused: a name is a plain file name (letters, digits, ".", "_", "-"), never a path`,
    );
  }
  const roots = personaRoots(ctx, cwd);
  for (const root of roots) {
    const file = join(root, `${name}.md`);
    let text: string;
    try {
      text = await Deno.readTextFile(file);
    } catch {
      continue;
    }
    if (!(await realInside(file, root))) {
      throw new FleetError("invalid_request", `Persona "${name}" refused: ${file} resolves outside ${root}`);
    }
    const prompt = personaBody(text);
    if (!prompt) throw new FleetError("invalid_request", `Persona "${name}" (${file}) has no body`);
    return { name, prompt: prompt.slice(0, MAX_PROMPT), source: file };
  }
  throw new FleetError(
    "not_found",
    `Persona "${name}" not found: looked for ${name}.md in ${roots.join(", ")}`,
  );
}
