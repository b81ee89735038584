/**
 * lib/daemon/wire.ts: the environment a daemon and its client must agree on
 * (`RELEVANT_ENV`, also the replay key's) covers every variable a host engine
 * inherits and reads, which the result cache keys those engines' results by.
 */
import assert from "node:assert/strict";
import { RELEVANT_ENV } from "../../lib/daemon/wire.ts";
import { ENGINES } from "../../lib/engines/registry.ts";
import { PYTHON_PATH_ENV } from "../../lib/identity/python_script.ts";

Deno.test("RELEVANT_ENV names every variable a host engine reads (each spec's hostEnv)", () => {
  const relevant = new Set<string>(RELEVANT_ENV);
  const read = ENGINES.flatMap((spec) => (spec.hostEnv ?? []).map((name) => `${spec.id}: ${name}`));
  assert.ok(read.length > 0, "shellcheck, go vet and rustfmt read some");
  assert.deepEqual(read.filter((line) => !relevant.has(line.split(": ")[1])), []);
});

Deno.test("RELEVANT_ENV names what a Python host tool's remembered version depends on (its packages' folders)", () => {
  const relevant = new Set<string>(RELEVANT_ENV);
  assert.deepEqual(PYTHON_PATH_ENV.filter((name) => !relevant.has(name)), []);
});
