import { deepEqual } from "node:assert/strict";
import { searchDirs } from "../../lib/workspace/which.ts";
import { withProcessEnv } from "../_helpers/process_env.ts";

Deno.test("searchDirs(): cargo subcommands also in $CARGO_HOME/bin or ~/.cargo/bin; cargo itself and others on PATH only", async () => {
  await withProcessEnv({ PATH: "/a:/b", HOME: "/h", CARGO_HOME: undefined }, () => {
    deepEqual(searchDirs("cargo-sort"), ["/a", "/b", "/h/.cargo/bin"]);
    deepEqual(searchDirs("cargo"), ["/a", "/b"], "poly runs cargo by name: PATH decides");
    deepEqual(searchDirs("shellcheck"), ["/a", "/b"]);
    Deno.env.set("CARGO_HOME", "/c");
    deepEqual(searchDirs("cargo-deny"), ["/a", "/b", "/c/bin"]);
    return Promise.resolve();
  });
});
