/**
 * A store's secrets are sealed with the key beside its database, whatever the
 * environment's state home says when they are opened (the environment is shared
 * by every test module of a parallel run, and a process may open a store by path).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openStore } from "../../lib/store/mod.ts";
import { keyHomeOf, seal, unseal } from "../../lib/gateway/seal.ts";
import { withProcessEnv } from "../_helpers/process_env.ts";
import { tempDir } from "../_helpers/temp.ts";

Deno.test("keyHomeOf() is the folder of the store's database, so a secret opens wherever POLY_STATE_HOME points", async () => {
  const home = await tempDir({ prefix: "poly-seal-home-" });
  const other = await tempDir({ prefix: "poly-seal-other-" });
  const db = openStore({ path: join(home, "poly.db") });
  try {
    assert.equal(keyHomeOf(db), home);
    const sealed = await withProcessEnv(
      { POLY_STATE_HOME: home },
      () => seal("s3cret-value", "bearer:x", keyHomeOf(db)),
    );
    const opened = await withProcessEnv({ POLY_STATE_HOME: other }, () => unseal(sealed, "bearer:x", keyHomeOf(db)));
    assert.equal(opened, "s3cret-value");
    await assert.rejects(Deno.stat(join(other, "gateway.key")), Deno.errors.NotFound, "no second key was made");
  } finally {
    db.close();
  }
});
