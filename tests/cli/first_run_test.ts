/**
 * A newcomer's first `deno task poly …` installs the pinned npm packages: it must
 * not end in Deno's "Ignored build scripts … deno approve-scripts" box, which the
 * README would otherwise have to explain. deno.json's `allowScripts` declines the
 * scripts poly does not need, and every package with an install script is named
 * there, so a new dependency with one fails this test until it is decided.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { tempDir } from "../_helpers/temp.ts";

const REPO = new URL("../..", import.meta.url).pathname;

Deno.test("deno install of poly's dependencies prints no 'Ignored build scripts' box", async () => {
  const dir = await tempDir({ prefix: "poly-first-run-" });
  try {
    for (const f of ["deno.json", "deno.lock"]) await Deno.copyFile(join(REPO, f), join(dir, f));
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["install"],
      cwd: dir,
      env: { NO_COLOR: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert.ok(out.success, text);
    assert.doesNotMatch(text, /Ignored build scripts|approve-scripts/, text);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
