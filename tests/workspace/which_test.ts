import { deepEqual } from "node:assert/strict";
import { inProcessWith } from "../_helpers/isolated.ts";

Deno.test("searchDirs(): cargo subcommands also in $CARGO_HOME/bin or ~/.cargo/bin; cargo itself and others on PATH only", async () => {
  // In a process of its own: a PATH set here, even for a moment, reaches every test module running beside this one
  // (deno test --parallel shares one process), whose programs then cannot start.
  const found = await inProcessWith(
    {},
    `
    // Set here, not by the parent: Deno puts its own node shim in front of a child process's PATH.
    Deno.env.set("PATH", "/a:/b");
    Deno.env.set("HOME", "/h");
    Deno.env.delete("CARGO_HOME");
    const { searchDirs } = await import(REPO + "/lib/workspace/which.ts");
    const before = ["cargo-sort", "cargo", "shellcheck"].map((name) => searchDirs(name));
    Deno.env.set("CARGO_HOME", "/c");
    console.log(JSON.stringify([...before, searchDirs("cargo-deny")]));
  `,
  ) as string[][];
  deepEqual(found[0], ["/a", "/b", "/h/.cargo/bin"]);
  deepEqual(found[1], ["/a", "/b"], "poly runs cargo by name: PATH decides");
  deepEqual(found[2], ["/a", "/b"]);
  deepEqual(found[3], ["/a", "/b", "/c/bin"]);
});
