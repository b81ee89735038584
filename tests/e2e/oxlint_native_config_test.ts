/**
 * The repository's own oxlint configuration governs oxlint where poly.toml turns it on: the real `poly lint` process
 * against the real `oxlint` command line (the pinned version, run in the repository as its users run it) on one small
 * repository that has each thing oxlint applies by path — a nested file that governs its folder alone, `extends` from
 * another folder, `overrides` globs, `ignorePatterns` — and the same findings are asked of both.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runPoly } from "../_helpers/cli.ts";
import { tempRepository } from "../_helpers/temp.ts";
import { missing } from "../engines/_harness.ts";
import { oxlintScript } from "../../lib/engines/oxlint/_bin.ts";

const absent = await missing("node", "oxlint's native configuration end to end (oxlint runs under Node.js)");

const SOURCE = "debugger;\nif (x == 1) console.log(1);\n";

const TREE: Record<string, string> = {
  ".oxlintrc.json": JSON.stringify({
    rules: { "no-debugger": "error", eqeqeq: "error" },
    ignorePatterns: ["ign/**"],
    overrides: [{ files: ["**/*.test.js"], rules: { eqeqeq: "off" } }],
  }),
  // Governs a/ alone: the root's rules, overrides and ignores do not reach below it.
  "a/.oxlintrc.json":
    '// a comment, as oxlint allows\n{ "rules": { "no-console": "error" }, "ignorePatterns": ["ign/**"], }\n',
  // An extended file's overrides match from the extending file's folder; its ignorePatterns are not applied.
  "base/cfg.json": JSON.stringify({
    rules: { "no-console": "error" },
    overrides: [{ files: ["*.test.js"], rules: { "no-console": "off" } }],
    ignorePatterns: ["*.js"],
  }),
  "c/.oxlintrc.json": JSON.stringify({ extends: ["../base/cfg.json"], rules: { eqeqeq: "error" } }),
  "top.js": SOURCE,
  "top.test.js": SOURCE,
  "ign/z.js": SOURCE,
  "a/x.js": SOURCE,
  "a/b/y.test.js": SOURCE,
  "a/ign/q.js": SOURCE,
  "c/k.js": SOURCE,
  "c/k.test.js": SOURCE,
  // The scripts of Vue, Svelte and Astro files, as oxlint lints them.
  "web/App.vue":
    '<template>\n  <p>{{ msg }}</p>\n</template>\n\n<script setup lang="ts">\nconst msg = 1;\ndebugger;\n</script>\n',
  "a/Card.svelte": "<script>\n  let a = 1;\n  debugger;\n  if (a == 2) console.log(a);\n</script>\n<p>{a}</p>\n",
  "c/Page.astro": "---\nconst x = 1;\ndebugger;\n---\n<div>{x}</div>\n",
  "poly.toml": "[lint.javascript.oxlint]\n\n[tools.biome]\nenabled = false\n\n[tools.ast-grep]\nenabled = false\n",
};

function tree(files: Record<string, string>): Promise<string> {
  return tempRepository(files, "poly-oxlint-native-");
}

/** `path:line:column code` for each of oxlint's own findings in the repository. */
async function nativeFindings(dir: string): Promise<string[]> {
  const out = await new Deno.Command("node", {
    args: [await oxlintScript(), "--format", "unix", "."],
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  const found: string[] = [];
  for (const line of text.split("\n")) {
    const m = /^(.+?):(\d+):(\d+): .* \[\w+\/(\S+)\((\S+)\)\]$/.exec(line);
    if (m) found.push(`${m[1]}:${m[2]}:${m[3]} ${m[4]}/${m[5]}`);
  }
  return found.sort();
}

interface Doc {
  results: {
    path: string;
    diagnostics?: { engine: string; code?: string; span?: { start_line: number; start_col: number } }[];
    error?: string;
  }[];
  configs: { sources: string[] }[];
  errors: { message: string }[];
}

async function polyLint(dir: string): Promise<{ code: number; doc: Doc; stderr: string }> {
  const out = await runPoly(["lint", "--no-workspace", "--no-cache", "--format", "json", "."], { cwd: dir });
  try {
    return { code: out.code, doc: JSON.parse(out.stdout), stderr: out.stderr };
  } catch {
    throw new Error(`not JSON (exit ${out.code}): ${out.stdout}\n${out.stderr}`);
  }
}

Deno.test({
  name: "poly lint finds what oxlint finds under the repository's nested, extended and overridden oxlint files",
  ignore: absent,
  async fn() {
    const dir = await tree(TREE);
    const expected = await nativeFindings(dir);
    assert.ok(expected.length > 10, `oxlint found ${expected.length} findings`);
    const { code, doc } = await polyLint(dir);
    assert.equal(code, 1);
    const found = doc.results.flatMap((r) =>
      (r.diagnostics ?? []).filter((d) => d.engine === "oxlint").map((d) =>
        `${r.path}:${d.span?.start_line}:${d.span?.start_col} ${d.code}`
      )
    ).sort();
    assert.deepEqual(found, expected);
    // What the root file ignores is no file oxlint lints, and is not reported clean by it either: no engine is left.
    const ignored = doc.results.find((r) => r.path === "ign/z.js") as { skipped?: string } | undefined;
    assert.equal(ignored?.skipped, 'ignored by oxlint: in ignorePatterns of "../.oxlintrc.json"');
    // The files that governed are listed, an extended base among them.
    const sources = doc.configs.flatMap((c) => c.sources);
    for (const file of [".oxlintrc.json", "a/.oxlintrc.json", "base/cfg.json", "c/.oxlintrc.json"]) {
      assert.ok(sources.includes(file), `${file} among the configurations' sources: ${sources}`);
    }
  },
});

Deno.test({
  name: "poly.toml's oxlint keys apply on top of the repository's file, and native_config = false turns the file off",
  ignore: absent,
  async fn() {
    const dir = await tree({
      ".oxlintrc.json": JSON.stringify({ rules: { eqeqeq: "error", "no-console": "error" } }),
      "x.js": SOURCE,
      "poly.toml": '[lint.javascript.oxlint]\nrules = { "no-console" = { level = "off" } }\n\n[tools.biome]\n' +
        "enabled = false\n\n[tools.ast-grep]\nenabled = false\n",
    });
    const codes = (doc: Doc) =>
      (doc.results.find((r) => r.path === "x.js")?.diagnostics ?? []).map((d) => d.code).sort();
    assert.deepEqual(codes((await polyLint(dir)).doc), ["eslint/eqeqeq", "eslint/no-debugger"]);
    await Deno.writeTextFile(join(dir, "poly.toml"), "[tools.oxlint]\nnative_config = false\n", { append: true });
    assert.deepEqual(codes((await polyLint(dir)).doc), ["eslint/no-debugger"]);
  },
});

Deno.test({
  name: "where an oxlint file governs, oxlint lints in biome's place; beside a biome file of biome's own, both lint",
  ignore: absent,
  async fn() {
    const dir = await tree({
      ".oxlintrc.json": JSON.stringify({ rules: { eqeqeq: "error" } }),
      "x.ts": "let a = 1;\nif (a == 2) a = 3;\nexport { a };\n",
      "poly.toml": "[tools.ast-grep]\nenabled = false\n",
    });
    const engines = (doc: Doc) =>
      [...new Set((doc.results.find((r) => r.path === "x.ts")?.diagnostics ?? []).map((d) => `${d.engine} ${d.code}`))]
        .sort();
    assert.deepEqual(engines((await polyLint(dir)).doc), ["oxlint eslint/eqeqeq"]);
    // poly.toml configuring biome's linting keeps biome beside it.
    await Deno.writeTextFile(join(dir, "poly.toml"), "\n[lint.typescript.biome]\n", { append: true });
    assert.deepEqual(engines((await polyLint(dir)).doc), ["biome suspicious/noDoubleEquals", "oxlint eslint/eqeqeq"]);
    await Deno.writeTextFile(join(dir, "poly.toml"), "[tools.ast-grep]\nenabled = false\n");
    await Deno.writeTextFile(join(dir, "biome.json"), "{}\n");
    assert.deepEqual(engines((await polyLint(dir)).doc), ["biome suspicious/noDoubleEquals", "oxlint eslint/eqeqeq"]);
    await Deno.remove(join(dir, "biome.json"));
    await Deno.writeTextFile(join(dir, "poly.toml"), "\n[tools.oxlint]\nenabled = false\n", { append: true });
    assert.deepEqual(engines((await polyLint(dir)).doc), ["biome suspicious/noDoubleEquals"]);
  },
});

Deno.test("an oxlint file poly cannot honour errors the files oxlint would lint, naming the file and key; others go on", async () => {
  const dir = await tree({
    ".oxlintrc.json": JSON.stringify({ jsPlugins: ["./plugin.js"] }),
    "x.js": "export const x = 1;\n",
    "notes.md": "# Notes\n",
  });
  const { code, doc } = await polyLint(dir);
  assert.equal(code, 2);
  const x = doc.results.find((r) => r.path === "x.js");
  assert.match(x?.error ?? "", /\.oxlintrc\.json: oxlint key "jsPlugins" cannot be honoured/);
  assert.match(x?.error ?? "", /\[tools\.oxlint\] enabled = false lints them without oxlint/);
  assert.equal(doc.results.find((r) => r.path === "notes.md")?.error, undefined);
});
