/**
 * yamllint's configuration (lib/config/native/yamllint.ts): found as yamllint finds it, its rules resolved as
 * yamllint's `extends` resolves them, and the YAML layout they ask of prettier. The end-to-end parity is
 * tests/e2e/host_native_config_test.ts (fixture yamllint-layout).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openConfig } from "../../../lib/config/load.ts";
import { YAMLLINT } from "../../../lib/config/native/mod.ts";
import { type YamlLayout, yamlLayout } from "../../../lib/config/native/yamllint.ts";
import { tempRepository } from "../../_helpers/temp.ts";

/** The layout the yamllint configuration governing `sub` asks for, or why poly cannot read it. */
async function layout(files: Record<string, string>, sub = ""): Promise<YamlLayout | string | undefined> {
  const dir = await tempRepository(files, "poly-native-yamllint-");
  const native = (await (await openConfig({ cwd: dir })).forDir(join(dir, sub))).native?.[YAMLLINT];
  return native && (native.unhonoured ?? yamlLayout(native.options));
}

Deno.test("yamllint's default and relaxed configurations, and a file's rules over them", async () => {
  assert.deepEqual(await layout({ ".yamllint": "extends: default\n" }), {
    prettier: { bracket_spacing: false, line_length: 80 },
    cannot: ["comments min-spaces-from-content 2"],
  });
  // relaxed: comments off, a space allowed inside braces and brackets, still 80 columns (a warning).
  assert.deepEqual(await layout({ ".yamllint.yaml": "extends: relaxed\n" }), {
    prettier: { line_length: 80 },
    cannot: [],
  });
  // A rule's mapping updates the base's; `enable` keeps its options; `disable` turns it off.
  assert.deepEqual(
    await layout({
      ".yamllint.yml":
        "extends: default\nrules:\n  comments:\n    min-spaces-from-content: 1\n  line-length: disable\n" +
        "  braces: enable\n  indentation:\n    spaces: 4\n  quoted-strings:\n    quote-type: single\n",
    }),
    {
      prettier: { indent_width: 4, bracket_spacing: false, line_length: 320, single_quote: true },
      cannot: [],
    },
  );
  // Without `extends`, only the rules the file names.
  assert.deepEqual(await layout({ ".yamllint": "rules:\n  indentation:\n    indent-sequences: false\n" }), {
    prettier: { line_length: 320 },
    cannot: ["indentation indent-sequences false"],
  });
  assert.deepEqual(
    ((await layout({
      ".yamllint": "rules:\n  brackets:\n    min-spaces-inside: 1\n    max-spaces-inside: 1\n",
    })) as YamlLayout)
      .cannot,
    ["brackets min-spaces-inside 1"],
  );
});

Deno.test("yamllint's file is the nearest from the folder up; `extends` a path reads it relative to the file", async () => {
  const found = await layout(
    {
      "ci/base.yaml": "extends: default\nrules:\n  line-length:\n    max: 120\n",
      "app/.yamllint": "extends: ../ci/base.yaml\nrules:\n  comments:\n    min-spaces-from-content: 1\n",
      "app/deploy/.keep": "",
    },
    "app/deploy",
  );
  assert.deepEqual(found, { prettier: { bracket_spacing: false, line_length: 120 }, cannot: [] });
  // A file poly cannot read is said so (the YAML files under it are errors, not formatted by defaults).
  assert.match(String(await layout({ ".yamllint": "extends: [default]\n" })), /`extends` must be a name or a path/);
  assert.match(String(await layout({ ".yamllint": "extends: missing.yaml\n" })), /missing\.yaml.*cannot be read/);
  assert.match(
    String(await layout({ ".yamllint": "extends: ci/a.yaml\n", "ci/a.yaml": "extends: ../.yamllint\n" })),
    /"extends" forms a cycle/,
  );
});
