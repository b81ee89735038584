/**
 * Finds the projects the whole-project phase runs over: Cargo workspaces (a
 * `Cargo.toml` with `[workspace]`, or a package not inside one) and Go modules
 * (`go.mod`). The walk skips hidden directories, `node_modules`, `target` and
 * `vendor`, and honours `[discovery] exclude`.
 *
 * @module
 */
import ignore, { type Ignore } from "ignore";
import { join, relative, sep } from "node:path";
import type { PathPattern } from "../config/types.ts";
import { compareText } from "../report/sort.ts";

/** One project a built-in job runs in. */
export interface Project {
  kind: "cargo" | "go";
  /** Absolute directory (the Cargo workspace root, or the Go module root). */
  dir: string;
  /** `dir` relative to the phase's cwd, with `/` separators; "." for the cwd itself. */
  rel: string;
}

const SKIP_DIRS = new Set(["node_modules", "target", "vendor", "__pycache__"]);

/** Walks `cwd` and returns its Cargo workspaces and Go modules, outermost first, sorted by path. */
export async function findProjects(
  cwd: string,
  excludes: readonly PathPattern[] = [],
  signal?: AbortSignal,
): Promise<Project[]> {
  const groups = groupExcludes(excludes);
  const excluded = (abs: string): boolean => {
    let hit = false;
    for (const { base, ig } of groups) {
      const rel = relative(base, abs);
      if (!rel || rel.startsWith("..")) continue;
      const result = ig.test(rel.split(sep).join("/") + "/");
      if (result.ignored) hit = true;
      else if (result.unignored) hit = false;
    }
    return hit;
  };
  const found: Project[] = [];
  // Packages below a `[workspace]` root are its members: clippy runs once, at the root.
  const workspaceRoots: string[] = [];
  const queue = [cwd];
  while (queue.length > 0) {
    signal?.throwIfAborted();
    const dir = queue.shift()!;
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(dir));
    } catch {
      continue; // unreadable directory: nothing to find there
    }
    entries.sort((a, b) => compareText(a.name, b.name));
    const names = new Set(entries.filter((e) => e.isFile).map((e) => e.name));
    const rel = relative(cwd, dir).split(sep).join("/") || ".";
    if (names.has("Cargo.toml") && !workspaceRoots.some((root) => inside(root, dir))) {
      const role = await cargoRole(join(dir, "Cargo.toml"));
      if (role === "workspace") workspaceRoots.push(dir);
      if (role) found.push({ kind: "cargo", dir, rel });
    }
    if (names.has("go.mod")) found.push({ kind: "go", dir, rel });
    for (const entry of entries) {
      if (!entry.isDirectory || entry.name.startsWith(".") || SKIP_DIRS.has(entry.name)) continue;
      const child = join(dir, entry.name);
      if (!excluded(child)) queue.push(child);
    }
  }
  return found.sort((a, b) => compareText(a.rel, b.rel) || compareText(a.kind, b.kind));
}

/** What a Cargo.toml starts: a workspace, a lone package, or nothing cargo can build. */
async function cargoRole(path: string): Promise<"workspace" | "package" | undefined> {
  try {
    const text = await Deno.readTextFile(path);
    if (/^\s*\[workspace\]/m.test(text)) return "workspace";
    if (/^\s*\[package\]/m.test(text)) return "package";
  } catch {
    // Unreadable: cargo could not build it either.
  }
  return undefined;
}

function inside(parent: string, child: string): boolean {
  return child === parent || child.startsWith(parent + sep);
}

function groupExcludes(excludes: readonly PathPattern[]): { base: string; ig: Ignore }[] {
  const groups: { base: string; ig: Ignore }[] = [];
  for (const { pattern, base } of excludes) {
    const last = groups.at(-1);
    if (last && last.base === base) last.ig.add(pattern);
    else groups.push({ base, ig: ignore().add(pattern) });
  }
  return groups;
}
