/**
 * A static scan of poly's source for the environment variables it reads, to hold
 * them against deno.json's `permissions.default.env` allow-list (a read outside it
 * makes `deno run` prompt, or with `--no-prompt` silently reads "unset").
 *
 * What counts as a read of a named variable:
 * - a call with a variable-like literal: `Deno.env.get("X")`, `Deno.env.has("X")`, and
 *   calls of the readers poly passes around, `env("X")`, `ctx.env("X")`, `read("X")`, `get("X")`;
 * - `process.env.X`, `process.env["X"]`;
 * - every string in an array bound to a name containing "env" (`ENV_KEYS`, `RELEVANT_ENV`,
 *   `PASSTHROUGH_ENV`, an adapter's `authEnv`), which the code reads name by name;
 * - a string constant bound to a name ending in `_ENV` (`PROFILE_ENV`).
 *
 * A `Deno.env.get(name)` whose argument is not a literal is a dynamic read: its file must
 * be one {@link DYNAMIC_READERS} lists, reviewed to take its names from the forms above
 * (or from the user, refused with a hint when not allowed).
 *
 * @module
 */
import { join, relative } from "node:path";

/** Source roots the program is built from. */
export const SOURCE_ROOTS = ["main.ts", "lib", "tools", "tui"];

/**
 * Files with a `Deno.env.get(<expression>)`, each reviewed: where its names come from.
 * A new dynamic read fails the scan until it is added here with its reason.
 */
export const DYNAMIC_READERS: Record<string, string> = {
  "lib/cli/_gateway.ts": "--token-env NAME from the user; a refused read says to use POLY_*",
  "lib/daemon/wire.ts": "reads RELEVANT_ENV",
  "lib/fleet/env.ts": "processEnv reader; callers pass literals, PASSTHROUGH_ENV and adapters' authEnv",
  "lib/gateway/profiles.ts": "reads PROFILE_ENV",
  "lib/gateway/sandbox.ts": "hostEnv(name) reader; callers pass literals and PASSTHROUGH_ENV",
  "lib/hooks/agent/hook.ts": "read(name) reader; callers pass literals",
  "lib/identity/engines.ts": "reads each host engine's hostEnv (SHELLCHECK_ENV, GO_ENV, RUSTFMT_ENV)",
  "lib/paths/mod.ts": "env(name) reader; callers pass literals",
  "lib/remote/client.ts": "--token-env NAME from the user; a refused read says to use POLY_*",
  "lib/workspace/_cache.ts": "reads ENV_KEYS",
  "tui/run.tsx": "get(name) reader; callers pass literals",
};

/** One variable read, and where. */
export interface EnvRead {
  name: string;
  file: string;
  line: number;
}

/** What the scan found. */
export interface EnvScan {
  reads: EnvRead[];
  /** `Deno.env.get(<expression>)` sites in files not in {@link DYNAMIC_READERS}. */
  unreviewed: EnvRead[];
}

const NAME = String.raw`[A-Za-z_][A-Za-z0-9_]*`;
const CALL = new RegExp(
  String.raw`(?:Deno\.env\.(?:get|has)|(?:^|[^\w$])(?:env|read|get|readEnv|getEnv))\(\s*["'\`](${NAME})["'\`]\s*\)`,
  "g",
);
const PROCESS_ENV = new RegExp(String.raw`process\.env(?:\.(${NAME})|\[\s*["'\`](${NAME})["'\`]\s*\])`, "g");
const ENV_ARRAY = new RegExp(
  String.raw`\b\w*env\w*\s*(?::\s*(?:readonly\s+)?[\w.<>]+(?:\[\])?\s*)?[=:]\s*(?:new Set\(\s*)?\[([^\]]*)\]`,
  "gi",
);
const ENV_CONST = new RegExp(String.raw`\b\w*_ENV\s*(?::\s*string\s*)?=\s*["'\`](${NAME})["'\`]`, "g");
const DYNAMIC = /Deno\.env\.get\(\s*(?!["'`])/g;
const STRING = new RegExp(String.raw`["'\`](${NAME})["'\`]`, "g");
/** Variable names look like this (an all-caps identifier), or are proxies' lower-case forms. */
const VARIABLE = /^(?:[A-Z][A-Z0-9_]*|[a-z]+_proxy)$/;

async function sourceFiles(repo: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(path: string): Promise<void> {
    const info = await Deno.stat(path);
    if (info.isFile) {
      if (/\.(ts|tsx)$/.test(path)) out.push(path);
      return;
    }
    for await (const entry of Deno.readDir(path)) await walk(join(path, entry.name));
  }
  for (const root of SOURCE_ROOTS) await walk(join(repo, root));
  return out.sort();
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split("\n").length;
}

/** Scans poly's source under `repo` for the environment variables it reads. */
export async function scanEnvReads(repo: string): Promise<EnvScan> {
  const reads: EnvRead[] = [];
  const unreviewed: EnvRead[] = [];
  for (const path of await sourceFiles(repo)) {
    const file = relative(repo, path);
    const text = await Deno.readTextFile(path);
    const add = (name: string, index: number) => {
      if (VARIABLE.test(name)) reads.push({ name, file, line: lineOf(text, index) });
    };
    for (const m of text.matchAll(CALL)) add(m[1], m.index);
    for (const m of text.matchAll(PROCESS_ENV)) add(m[1] ?? m[2], m.index);
    for (const m of text.matchAll(ENV_CONST)) add(m[1], m.index);
    for (const m of text.matchAll(ENV_ARRAY)) {
      for (const s of m[1].matchAll(STRING)) add(s[1], m.index);
    }
    if (!(file in DYNAMIC_READERS)) {
      for (const m of text.matchAll(DYNAMIC)) {
        unreviewed.push({ name: "(expression)", file, line: lineOf(text, m.index) });
      }
    }
  }
  return { reads, unreviewed };
}

/** Whether `name` is allowed by an allow-list entry (`POLY_*` matches every name starting `POLY_`). */
export function allowedBy(list: readonly string[], name: string): boolean {
  return list.some((entry) => entry.endsWith("*") ? name.startsWith(entry.slice(0, -1)) : entry === name);
}
