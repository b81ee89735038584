/**
 * A snapshot of the program's source (main.ts, deno.json, deno.lock, lib/,
 * tools/) in a temporary directory, with node_modules linked to the
 * repository's. Tests that start a server from a snapshot are immune to edits
 * of the working tree while they run (the server would rightly refuse every call
 * once a module it runs from changes), and the self-fingerprint test edits the
 * snapshot, never the repository.
 *
 * @module
 */
import { sourceCommand } from "../../lib/identity/code.ts";
import { join } from "node:path";
import { REPO } from "../_helpers/cli.ts";
import { tempDir } from "../_helpers/temp.ts";

/** A copy of the program. */
export interface Snapshot {
  dir: string;
  /** Argv that starts poly from the snapshot with its permission set. */
  command: string[];
}

const ENTRIES = ["main.ts", "deno.json", "deno.lock", "lib", "tools"];

let shared: Promise<Snapshot> | undefined;

/** A snapshot shared by the tests of one test process (never modify it). */
export function sharedSnapshot(): Promise<Snapshot> {
  shared ??= snapshotRepo();
  return shared;
}

/** A fresh snapshot (for tests that modify it). */
export async function snapshotRepo(): Promise<Snapshot> {
  const dir = await tempDir({ prefix: "poly-snapshot-" });
  for (const entry of ENTRIES) await copy(join(REPO, entry), join(dir, entry));
  await Deno.symlink(join(REPO, "node_modules"), join(dir, "node_modules"));
  return {
    dir,
    // As the tests run poly (`polyCommand()`): node_modules/ as installed, not re-checked at every start.
    command: sourceCommand(dir),
  };
}

async function copy(from: string, to: string): Promise<void> {
  const info = await Deno.lstat(from);
  if (info.isDirectory) {
    await Deno.mkdir(to, { recursive: true });
    for await (const entry of Deno.readDir(from)) await copy(join(from, entry.name), join(to, entry.name));
  } else if (info.isSymlink) {
    await Deno.symlink(await Deno.readLink(from), to);
  } else if (info.isFile) {
    await Deno.copyFile(from, to);
  }
}
