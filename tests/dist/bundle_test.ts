/**
 * `deno task bundle` (scripts/bundle.ts): the program bundled, then run by
 * main.ts as users run it, gives the reports the source gives. The bundle is
 * built into a temporary `POLY_BUNDLE_DIR`, so the rest of the suite keeps
 * running from source.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { EAGER_REQUIRE, externalFlags, LAZY_REQUIRE, lazyRequire } from "../../scripts/bundle.ts";
import { copyFixture, REPO, runPoly } from "../_helpers/cli.ts";
import { tempDir } from "../_helpers/temp.ts";

Deno.test("lazyRequire: the bundler's eager require becomes one made at first call; other text is left", () => {
  const chunk = `var __create = Object.create;\n${EAGER_REQUIRE}\n\nvar __commonJS = (cb, mod) => 0;\n`;
  const { text, changed } = lazyRequire(chunk);
  assert.equal(changed, 1);
  assert.ok(!text.includes('node:module";'), text);
  assert.ok(text.includes(LAZY_REQUIRE));
  assert.ok(text.startsWith("var __create = Object.create;\n") && text.endsWith("var __commonJS = (cb, mod) => 0;\n"));
  assert.deepEqual(lazyRequire("export {};\n"), { text: "export {};\n", changed: 0 });
});

Deno.test("externalFlags: every package but the bundled ones, a folder key as its pattern", () => {
  assert.deepEqual(
    externalFlags({
      "zod": "npm:zod@4",
      "@optique/core/": "npm:/@optique/core@1/",
      "@biomejs/biome": "npm:@biomejs/biome@2",
      "prettier/": "npm:/prettier@3/",
    }),
    ["--external=@biomejs/biome", "--external=prettier/*"],
  );
});

/** The JSON report without its `poly` block (the process id differs). */
function report(stdout: string): unknown {
  const { poly: _, ...rest } = JSON.parse(stdout);
  return rest;
}

Deno.test({
  name: "the bundled program lints and checks formatting as the source does; built again, the same bundle stays",
  async fn() {
    const bundles = await tempDir({ prefix: "poly-bundles-" });
    const dec = new TextDecoder();
    const bundle = () =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", "-q", "-P=build", "--no-prompt", join(REPO, "scripts", "bundle.ts")],
        cwd: REPO,
        env: { POLY_BUNDLE_DIR: bundles },
        stdout: "piped",
        stderr: "piped",
      }).output();
    const build = await bundle();
    assert.equal(build.code, 0, dec.decode(build.stderr));
    const [folder] = [...Deno.readDirSync(bundles)].filter((e) => e.isDirectory).map((e) => join(bundles, e.name));
    assert.match(dec.decode(build.stdout), /^bundled the program into /);

    const dir = await copyFixture("e2e/outcomes");
    for (const args of [["lint", "--no-workspace", "--no-cache"], ["fmt", "--check", "--no-cache"]]) {
      const bundled = await runPoly([...args, "--format", "json"], {
        cwd: dir,
        env: { POLY_BUNDLE_DIR: bundles, POLY_DEBUG: "launch" },
      });
      assert.match(bundled.stderr, new RegExp(`^poly: the program runs from ${folder.replaceAll("/", "\\/")}\n`));
      const source = await runPoly([...args, "--format", "json"], {
        cwd: dir,
        env: { POLY_BUNDLE_DIR: bundles, POLY_BUNDLE: "off", POLY_DEBUG: "launch" },
      });
      assert.match(source.stderr, /^poly: the program runs from source: POLY_BUNDLE=off\n/);
      assert.equal(bundled.code, source.code, `${args[0]}: ${bundled.stderr}`);
      assert.deepEqual(report(bundled.stdout), report(source.stdout), args[0]);
    }

    // Built again under the same source, the bundle is the one already there.
    const again = await bundle();
    assert.equal(again.code, 0, dec.decode(again.stderr));
    assert.equal(dec.decode(again.stdout), `the bundle for this source is built: ${folder}\n`);
  },
});
