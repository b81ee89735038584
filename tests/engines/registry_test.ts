/**
 * The engine registry is the one list of engines: adding an engine is its folder
 * under lib/engines/ plus one import and one entry in registry.ts. A module that
 * spells out engine ids again is a second place to forget.
 */
import { deepEqual } from "node:assert/strict";
import { join, relative } from "node:path";
import { ENGINE_IDS as CONFIG_ENGINE_IDS } from "../../lib/config/mod.ts";
import { ENGINE_IDS, ENGINES } from "../../lib/engines/registry.ts";
import { REPO } from "../_helpers/cli.ts";

/**
 * Lists of engine ids that mean something narrower than "every engine", each with
 * what it means. Derive a new list from the registry instead of adding it here.
 */
const NARROWER_LISTS: Record<string, string> = {
  "lib/config/native/mod.ts": "engines with configuration files of their own, each with its reader",
  "lib/config/native/import.ts": "native files `poly config import` keeps beside poly.toml",
  "lib/run/plan.ts": "formatters whose own configuration .editorconfig does not override",
};

async function* sources(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* sources(path);
    else if (/\.tsx?$/.test(entry.name)) yield path;
  }
}

Deno.test("engine ids are listed once, in the registry: no module outside lib/engines/ spells out a list of them", async () => {
  const ids = new Set(ENGINE_IDS);
  const lists: string[] = [];
  for (const top of ["lib", "tools", "tui"]) {
    for await (const path of sources(join(REPO, top))) {
      const rel = relative(REPO, path);
      if (rel.startsWith("lib/engines/") || rel in NARROWER_LISTS) continue;
      for (const bracket of (await Deno.readTextFile(path)).matchAll(/\[([^[\]]*)\]/g)) {
        const named = new Set([...bracket[1].matchAll(/"([a-z][a-z-]*)"/g)].map((m) => m[1]).filter((s) => ids.has(s)));
        if (named.size >= 3) lists.push(`${rel}: ${[...named].join(", ")}`);
      }
    }
  }
  deepEqual(lists, [], "derive these from lib/engines/registry.ts (ENGINES, ENGINE_IDS)");
});

Deno.test("the config schema accepts every registered engine id, and no other name but the two former ones", () => {
  deepEqual([...CONFIG_ENGINE_IDS], [...new Set([...ENGINES.map((e) => e.id), "clippy", "taplo"])].sort());
});
