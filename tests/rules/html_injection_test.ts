/**
 * JavaScript's and CSS's rules run on an HTML file's `<script>` and `<style>` blocks, as `ast-grep scan` injects those
 * languages there (a `<script lang="ts">` is not JavaScript), on both of poly's paths (the command line's batch and
 * napi). NATIVE is `ast-grep scan --json` 0.51 on the same tree, rules and all.
 */
import { deepEqual } from "node:assert/strict";
import { join } from "node:path";
import { runPoly } from "../_helpers/cli.ts";
import { tempDir } from "../_helpers/temp.ts";

const NATIVE = ["index.html:css-important:3:18", "index.html:js-debugger:13:9"];

const HTML = `<!doctype html>
<style>
  a { color: red !important; }
</style>
<div id="app"></div>
<script type="module">
  const el = document.querySelector("#app")
  el.textContent = location.hash
</script>
<script lang="ts">
  debugger
</script>
<script>debugger</script>
`;

async function tree(): Promise<string> {
  const dir = await tempDir({ prefix: "poly-html-injection-" });
  await Deno.mkdir(join(dir, ".git"));
  await Deno.mkdir(join(dir, "rules"));
  await Deno.writeTextFile(join(dir, "index.html"), HTML);
  await Deno.writeTextFile(
    join(dir, "rules/css-important.yml"),
    "id: css-important\nlanguage: css\nmessage: no !important\nrule:\n  kind: important\n",
  );
  await Deno.writeTextFile(
    join(dir, "rules/js-debugger.yml"),
    "id: js-debugger\nlanguage: javascript\nmessage: no debugger\nrule:\n  kind: debugger_statement\n",
  );
  await Deno.writeTextFile(join(dir, "poly.toml"), '[rules]\ndirs = ["rules"]\n\n[tools.biome]\nenabled = false\n');
  return dir;
}

async function found(dir: string, path: string): Promise<string[]> {
  const out = await runPoly(["lint", "--no-cache", "--no-workspace", "--format", "json", path], { cwd: dir });
  const doc = JSON.parse(out.stdout) as {
    results: { path: string; diagnostics?: { code?: string; span?: { start_line: number; start_col: number } }[] }[];
  };
  return doc.results.flatMap((r) =>
    (r.diagnostics ?? []).filter((d) => d.code === "css-important" || d.code === "js-debugger").map((d) =>
      `${r.path}:${d.code}:${d.span?.start_line}:${d.span?.start_col}`
    )
  ).sort();
}

Deno.test("JavaScript's and CSS's rules run on HTML's <script> and <style> blocks, as ast-grep scan injects them", async () => {
  const dir = await tree();
  deepEqual(await found(dir, "."), NATIVE); // the command line's batch, its embedded matches left to napi
  deepEqual(await found(dir, "index.html"), NATIVE); // one file: napi alone
});
