/**
 * Named personas (`agent: "reviewer"`) and inline ones (`agent: {prompt}`).
 *
 * A name is a plain file name (letters, digits, `.`, `_`, `-`): anything that
 * could walk out of a persona folder is refused. `<name>.md` is looked up in
 * `POLY_AGENT_PATHS` (and `[fleet] agent_paths`), then `<cwd>/.claude/agents`,
 * `<root>/.claude/agents`, `~/.claude/agents`, then the `agents` folders of
 * plugin-installed agents under `~/.claude/plugins` ({@link pluginAgentDirs}); a file
 * whose real path leaves its folder (a symlink out) is refused too. YAML front matter is dropped; the body
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

/** How deep {@link pluginAgentDirs} looks under `~/.claude/plugins`, and how many folders it reads at most. */
export const PLUGIN_SEARCH = { depth: 5, folders: 2000 } as const;

/**
 * The `agents` folders of Claude Code plugins under `<home>/.claude/plugins`, found by a
 * bounded walk (at most {@link PLUGIN_SEARCH} depth and folders; symlinks not followed).
 * Installed plugins live in `cache/<marketplace>/<plugin>/<version>/agents`, marketplace
 * clones in `marketplaces/<marketplace>/plugins/<plugin>/agents`; installed copies come
 * first, then the rest, each sorted by path, so a lookup is deterministic.
 */
export async function pluginAgentDirs(home: string): Promise<string[]> {
  const top = join(home, ".claude", "plugins");
  const found: string[] = [];
  let budget: number = PLUGIN_SEARCH.folders;
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (budget-- <= 0) return;
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(dir));
    } catch {
      return;
    }
    entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    for (const e of entries) {
      if (!e.isDirectory || e.name.startsWith(".") || e.name === "node_modules") continue;
      const path = join(dir, e.name);
      if (e.name === "agents") found.push(path);
      else if (depth < PLUGIN_SEARCH.depth) await walk(path, depth + 1);
    }
  };
  await walk(top, 1);
  const cache = join(top, "cache") + sep;
  return [...found.filter((d) => d.startsWith(cache)), ...found.filter((d) => !d.startsWith(cache))];
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
  const roots = [...personaRoots(ctx, cwd), ...await pluginAgentDirs(ctx.settings.home)];
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
    `Persona "${name}" not found: looked for ${name}.md in ${
      [...personaRoots(ctx, cwd), join(ctx.settings.home, ".claude", "plugins", "**", "agents")].join(", ")
    }`,
  );
}
