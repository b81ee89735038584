/**
 * Which prettier a repository formats with (lib/config/native/prettier.ts): the range a `package.json` declares, and
 * whether it is another major than poly's prettier. The end-to-end parity is tests/e2e/host_native_config_test.ts
 * (fixture prettier-major).
 */
import assert from "node:assert/strict";
import {
  anotherRelease,
  declaredRelease,
  OXFMT_RELEASE,
  PRETTIER_RELEASE,
} from "../../../lib/config/native/prettier.ts";
import { readPreCommit } from "../../../lib/config/native/pre_commit.ts";

Deno.test("a package.json declares prettier in devDependencies, else dependencies; an npm alias by its range", () => {
  const manifest = (deps: Record<string, unknown>) => JSON.stringify(deps);
  assert.equal(declaredRelease(manifest({ devDependencies: { prettier: "2.8.8" } }), "prettier"), "2.8.8");
  assert.equal(
    declaredRelease(
      manifest({ dependencies: { prettier: "^3.3.2" }, devDependencies: { prettier: "^2.0.0" } }),
      "prettier",
    ),
    "^2.0.0",
  );
  assert.equal(declaredRelease(manifest({ dependencies: { prettier: "~3.1" } }), "prettier"), "~3.1");
  assert.equal(declaredRelease(manifest({ devDependencies: { prettier: "npm:prettier@2.8.8" } }), "prettier"), "2.8.8");
  assert.equal(declaredRelease(manifest({ devDependencies: { eslint: "^9" }, prettier: {} }), "prettier"), undefined);
  assert.equal(declaredRelease(manifest({ devDependencies: { prettier: 2 } }), "prettier"), undefined);
  assert.equal(declaredRelease("{ not json", "prettier"), undefined);
});

Deno.test("a version or range that does not admit poly's prettier names another prettier; one npm cannot read none", async () => {
  assert.equal(PRETTIER_RELEASE, "3.10.1");
  for (
    const spec of ["2.8.8", "^2.8.8", "~2.3", "2.x", ">=1.19 <3", "3.7.4", "~3.3", "3.0.0-alpha.6", "4.0.0-alpha.8"]
  ) {
    assert.equal(await anotherRelease(spec), true, spec);
  }
  for (const spec of ["3.10.1", "^3.3.2", "~3.10.0", ">=2", "*", "2 || 3", "latest", "workspace:*", "catalog:"]) {
    assert.equal(await anotherRelease(spec), false, spec);
  }
});

Deno.test("oxfmt's releases before 1.0: a caret range admits its own minor release alone", async () => {
  assert.equal(OXFMT_RELEASE, "0.78.0");
  assert.equal(declaredRelease(JSON.stringify({ devDependencies: { oxfmt: "^0.63.0" } }), "oxfmt"), "^0.63.0");
  for (const spec of ["^0.63.0", "0.77.1", "~0.63", "^0.79.0"]) {
    assert.equal(await anotherRelease(spec, OXFMT_RELEASE), true, spec);
  }
  for (const spec of ["^0.78.0", "0.78.0", ">=0.60", "latest"]) {
    assert.equal(await anotherRelease(spec, OXFMT_RELEASE), false, spec);
  }
});

Deno.test("a hook's release is the one its additional_dependencies name, else its rev's", async () => {
  const config = (extra: string) =>
    `repos:\n- repo: https://github.com/pre-commit/mirrors-prettier\n  rev: v2.7.1\n  hooks:\n  - id: prettier\n${extra}`;
  assert.equal((await readPreCommit(config(""), ".pre-commit-config.yaml")).hooks[0]?.version, "2.7.1");
  const pinned = await readPreCommit(
    config('    additional_dependencies: ["@prettier/plugin-xml@3.4.1", "prettier@3.3.3"]\n'),
    ".pre-commit-config.yaml",
  );
  assert.equal(pinned.hooks[0]?.version, "3.3.3");
});
