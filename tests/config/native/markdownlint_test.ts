/**
 * markdownlint-cli2's `ignores` and `gitignore` keys in-process: which files they keep from markdownlint, held to
 * what markdownlint-cli2 0.24.1 lints of the same trees, run from the root over every Markdown file.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { openConfig } from "../../../lib/config/load.ts";
import { nativeExcluded } from "../../../lib/config/native/mod.ts";
import { expandBraces, markdownLayout } from "../../../lib/config/native/markdownlint.ts";
import { tempRepository } from "../../_helpers/temp.ts";

const CLI2 = ".markdownlint-cli2.yaml";
const BAD = "#Bad heading\n";

/** A repository holding `files` (a Markdown file named without text gets a bad heading) and its opened configuration. */
async function repo(files: Record<string, string>) {
  const dir = await tempRepository(
    Object.fromEntries(Object.entries(files).map(([p, t]) => [p, t || BAD])),
    "poly-mdl-ignores-",
  );
  return { dir, configs: await openConfig({ cwd: dir }) };
}

/** The Markdown files of `files` markdownlint lints (no cli2 `ignores` keeps them), sorted. */
async function linted(files: Record<string, string>): Promise<string[]> {
  const { dir, configs } = await repo(files);
  const out: string[] = [];
  for (const path of Object.keys(files).filter((p) => p.endsWith(".md")).sort()) {
    const native = (await configs.forDir(dirname(join(dir, path)))).native?.markdownlint;
    assert.equal(native?.unhonoured, undefined, native?.unhonoured);
    if (!native || !nativeExcluded("markdownlint", "lint", native, join(dir, path))) out.push(path);
  }
  return out;
}

const TREE = {
  "a.md": "",
  "docs/b.md": "",
  "docs/x/c.md": "",
  "docs/.d/e.md": "",
  "vendor/a.md": "",
  "vendor/d/a.md": "",
  "vendor/keep.md": "",
  "x/vendor/b.md": "",
};
const ALL = Object.keys(TREE).sort();
const without = (...gone: string[]) => ALL.filter((p) => !gone.includes(p));

Deno.test("cli2 ignores: the root's list keeps its files from markdownlint, naming the file and key", async () => {
  const { dir, configs } = await repo({
    [CLI2]: 'ignores:\n  - "vendor/**"\nconfig:\n  MD013: false\n',
    "vendor/a.md": "",
    "docs/b.md": "",
  });
  const native = (await configs.forDir(join(dir, "vendor"))).native!.markdownlint;
  assert.deepEqual(native.options, { MD013: false }); // the configuration still governs
  assert.deepEqual(native.files.map((f) => f.path), [join(dir, CLI2)]);
  assert.equal(
    nativeExcluded("markdownlint", "lint", native, join(dir, "vendor/a.md")),
    'ignored by markdownlint: in ignores of "../.markdownlint-cli2.yaml"',
  );
  const docs = (await configs.forDir(join(dir, "docs"))).native!.markdownlint;
  assert.equal(nativeExcluded("markdownlint", "lint", docs, join(dir, "docs/b.md")), undefined);
});

Deno.test("cli2 ignores: the root's globs as its file search applies them (folders skipped whole, dot files)", async () => {
  const at = (globs: string[]) => linted({ ...TREE, [CLI2]: `ignores: ${JSON.stringify(globs)}\n` });
  // A folder's name keeps everything below it; `**/vendor` every folder of that name.
  assert.deepEqual(await at(["vendor"]), without("vendor/a.md", "vendor/d/a.md", "vendor/keep.md"));
  assert.deepEqual(await at(["/vendor"]), without("vendor/a.md", "vendor/d/a.md", "vendor/keep.md"));
  assert.deepEqual(await at(["**/vendor"]), without("vendor/a.md", "vendor/d/a.md", "vendor/keep.md", "x/vendor/b.md"));
  // `vendor/*` names the folder's files and folders, but fast-glob reads on below a folder such a glob matches.
  assert.deepEqual(await at(["vendor/*"]), without("vendor/a.md", "vendor/keep.md"));
  // A wildcard in the last part: files only (the folder vendor is read, its files do not match).
  assert.deepEqual(await at(["*endor"]), ALL);
  // Dot files and folders match (`dot: true`); braces are expanded.
  assert.deepEqual(await at(["docs/**/*.md"]), without("docs/b.md", "docs/x/c.md", "docs/.d/e.md"));
  assert.deepEqual(await at(["{docs,x}"]), without("docs/b.md", "docs/x/c.md", "docs/.d/e.md", "x/vendor/b.md"));
  // `*.md` is the root's files only.
  assert.deepEqual(await at(["*.md"]), without("a.md"));
  // A `!` glob is no exception to the others: markdownlint-cli2 then keeps every file from markdownlint.
  assert.deepEqual(await at(["vendor/**", "!vendor/keep.md"]), []);
  // An empty list, or none, keeps nothing.
  assert.deepEqual(await at([]), ALL);
  assert.deepEqual(await linted({ ...TREE, [CLI2]: "ignores: null\n" }), ALL);
});

Deno.test("cli2 ignores: a configuration folder's files are filtered by the nearest list, relative to it", async () => {
  const files = {
    "a.md": "",
    "sub/a.md": "",
    "sub/deep/x.md": "",
    "cfg/a.md": "",
    "cfg/in/b.md": "",
    "other/c.md": "",
    "cfg/.markdownlint.json": "{}\n",
  };
  // The root's `*.md` reaches the files of a folder holding a markdownlint file of its own (cfg/a.md), matched
  // relative to that folder, and not those of a folder without one (other/c.md is `other/c.md` to the root's).
  assert.deepEqual(
    await linted({ ...files, [CLI2]: "ignores: ['*.md']\n", [`sub/${CLI2}`]: "config: {}\n" }),
    ["cfg/in/b.md", "other/c.md", "sub/deep/x.md"],
  );
  // A nested list replaces the one above for its folder's files; `[]` keeps none.
  assert.deepEqual(
    await linted({ ...files, [CLI2]: "ignores: ['*.md']\n", [`sub/${CLI2}`]: "ignores: []\n" }),
    ["cfg/in/b.md", "other/c.md", "sub/a.md", "sub/deep/x.md"],
  );
  // A nested list applies below its folder only; it is no part of the file search (a folder's name alone keeps
  // nothing there).
  assert.deepEqual(
    await linted({ ...files, [`sub/${CLI2}`]: "ignores: ['**/x.md', 'deep']\n" }),
    ["a.md", "cfg/a.md", "cfg/in/b.md", "other/c.md", "sub/a.md"],
  );
});

Deno.test("cli2 ignores without any configuration keep files only: the record says so", async () => {
  const { dir, configs } = await repo({ ".markdownlint-cli2.jsonc": '{ "ignores": ["vendor"] }\n', "vendor/a.md": "" });
  const native = (await configs.forDir(join(dir, "vendor"))).native!.markdownlint;
  assert.equal(native.ignoreOnly, true);
  assert.deepEqual(native.options, {});
  assert.deepEqual(native.files.map((f) => f.path), [join(dir, ".markdownlint-cli2.jsonc")]);
  assert.match(nativeExcluded("markdownlint", "lint", native, join(dir, "vendor/a.md")) ?? "", /in ignores of/);
  // Without the key, nothing changes: no record where no configuration is found.
  const none = await repo({ [CLI2]: "globs: ['*.md']\n", "a.md": "" });
  assert.equal((await none.configs.forDir(none.dir)).native?.markdownlint, undefined);
});

Deno.test("cli2 ignores and gitignore poly cannot honour are errors naming the file and key", async () => {
  const unhonoured = async (text: string) => {
    const { dir, configs } = await repo({ [CLI2]: text, "a.md": "" });
    return (await configs.forDir(dir)).native?.markdownlint?.unhonoured;
  };
  assert.match(await unhonoured("ignores: vendor\n") ?? "", /\.markdownlint-cli2\.yaml.*key "ignores" must be a list/);
  assert.match(
    await unhonoured("gitignore: '**/.markdownlintignore'\n") ?? "",
    /\.markdownlint-cli2\.yaml.*key "gitignore" names ignore files other than \.gitignore/,
  );
  // `true` and a glob of .gitignore files leave out only what poly's discovery leaves out already.
  assert.equal(await unhonoured("gitignore: true\nconfig: {}\n"), undefined);
  assert.equal(await unhonoured("gitignore: '**/.gitignore'\nconfig: {}\n"), undefined);
  // A nested file's gitignore is not read, as markdownlint-cli2 reads the root's only.
  assert.deepEqual(await linted({ "sub/a.md": "", [`sub/${CLI2}`]: "gitignore: x\nconfig: {}\n" }), ["sub/a.md"]);
});

Deno.test("expandBraces() expands as fast-glob asks micromatch's braces to", () => {
  assert.deepEqual(expandBraces("{a,b}/{c,d}"), ["a/c", "a/d", "b/c", "b/d"]);
  assert.deepEqual(expandBraces("x{a,{b,c}}y"), ["xay", "xby", "xcy"]);
  assert.deepEqual(expandBraces("{1..3}.md"), ["1.md", "2.md", "3.md"]);
  assert.deepEqual(expandBraces("{01..10..3}"), ["01", "04", "07", "10"]);
  assert.deepEqual(expandBraces("a{,b}"), ["a", "ab"]);
  assert.deepEqual(expandBraces("{a}"), ["{a}"]);
  assert.deepEqual(expandBraces("\\{a,b}"), ["\\{a,b}"]);
});

Deno.test("markdownLayout() gives dprint the markers the rules ask for, and names what it cannot write", () => {
  assert.deepEqual(markdownLayout({}), { dprint: { code_block_tabs: false }, cannot: [] });
  assert.deepEqual(
    markdownLayout({
      "ul-style": { style: "asterisk" },
      MD049: { style: "asterisk" },
      "strong-style": { style: "underscore" },
    }),
    {
      dprint: {
        unorderedListKind: "asterisks",
        emphasisKind: "asterisks",
        strongKind: "underscores",
        code_block_tabs: false,
      },
      cannot: [],
    },
  );
  // "consistent", a rule turned off (by name, alias, tag, `enabled: false` or `default: false`): nothing asked.
  assert.deepEqual(markdownLayout({ default: false, MD004: { style: "consistent" } }), { dprint: {}, cannot: [] });
  assert.deepEqual(markdownLayout({ emphasis: false, whitespace: false, MD004: { style: "dash", enabled: false } }), {
    dprint: {},
    cannot: [],
  });
  // MD010 with `code_blocks: false` does not look at code blocks.
  assert.deepEqual(markdownLayout({ "no-hard-tabs": { code_blocks: false } }).dprint, {});
  // mkdocs/mkdocs's: what dprint cannot write.
  assert.deepEqual(
    markdownLayout({
      MD007: { indent: 4 },
      MD030: { ul_single: 1, ol_single: 1, ul_multi: 3, ol_multi: 2 },
      MD055: { style: "no_leading_or_trailing" },
      MD004: { style: "sublist" },
      MD010: false,
    }).cannot,
    [
      'MD004 style "sublist"',
      "MD007 indent 4",
      "MD030 ul_multi 3",
      "MD030 ol_multi 2",
      'MD055 style "no_leading_or_trailing"',
    ],
  );
  // The last key naming a rule wins, as in markdownlint.
  assert.deepEqual(markdownLayout({ MD049: { style: "asterisk" }, emphasis: false, MD010: false }).dprint, {});
});
