/**
 * Isolated cache and state homes for in-process access tests (the lint tools
 * they run write the result cache).
 *
 * @module
 */
import { join } from "node:path";
import { openStore } from "../../lib/store/mod.ts";
import { AccessStore } from "../../lib/access/store.ts";
import { ProposalStore } from "../../lib/access/proposals.ts";
import type { ApprovalStores } from "../../lib/access/approve.ts";
import { setProcessEnv } from "../_helpers/process_env.ts";
import { tempDir } from "../_helpers/temp.ts";

const base = await tempDir({ prefix: "poly-access-home-" });
await setProcessEnv({ POLY_CACHE_HOME: join(base, "cache"), POLY_STATE_HOME: join(base, "state") });

/** Fresh stores over a fresh database. */
export async function freshStores(): Promise<ApprovalStores> {
  const dir = await tempDir({ prefix: "poly-access-db-" });
  const db = openStore({ path: join(dir, "poly.db") });
  return { access: new AccessStore(db), proposals: new ProposalStore(db) };
}

/** A workspace with the given files (real path). */
export async function workspace(files: Record<string, string>): Promise<string> {
  const root = await Deno.realPath(await tempDir({ prefix: "poly-access-ws-" }));
  for (const [name, text] of Object.entries(files)) await Deno.writeTextFile(join(root, name), text);
  return root;
}
