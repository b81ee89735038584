/**
 * The Python formatters poly does not run (lib/config/native/python_style.ts): yapf's files found as yapf finds them,
 * pyink's table, and the configuration they make keeping ruff and black from formatting (lib/run/plan.ts). The
 * end-to-end parity is tests/e2e/host_native_config_test.ts (fixture python-style-kept).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openConfig } from "../../../lib/config/load.ts";
import { PYTHON_STYLE } from "../../../lib/config/native/mod.ts";
import { tempRepository } from "../../_helpers/temp.ts";

async function keptBy(files: Record<string, string>, sub = ""): Promise<string | undefined> {
  const dir = await tempRepository(files, "poly-native-pystyle-");
  return (await (await openConfig({ cwd: dir })).forDir(join(dir, sub))).native?.[PYTHON_STYLE]?.keptBy;
}

Deno.test("yapf's files, in yapf's order in each folder from the file's up: .style.yapf, [yapf], [tool.yapf]", async () => {
  assert.equal(await keptBy({ ".style.yapf": "[style]\nbased_on_style = google\n" }), "yapf (.style.yapf)");
  assert.equal(
    await keptBy({ "setup.cfg": "[metadata]\nname = a\n\n[yapf] # the style\nbased_on_style = pep8\n" }),
    "yapf ([yapf] in setup.cfg)",
  );
  assert.equal(
    await keptBy({ "pyproject.toml": '[tool.yapf]\nbased_on_style = "pep8"\n' }),
    "yapf ([tool.yapf] in pyproject.toml)",
  );
  assert.equal(
    await keptBy({ "pyproject.toml": "[tool.pyink]\npyink-indentation = 2\n" }),
    "pyink ([tool.pyink] in pyproject.toml)",
  );
  // A setup.cfg without the section is passed over, to the pyproject.toml beside it and the folders above.
  assert.equal(
    await keptBy({ "pkg/setup.cfg": "[flake8]\n", ".style.yapf": "[style]\n", "pkg/src/.keep": "" }, "pkg/src"),
    "yapf (.style.yapf)",
  );
  // yapf's ignore table, black's, ruff's: not a formatter poly leaves the files to.
  assert.equal(
    await keptBy({ "pyproject.toml": '[tool.yapfignore]\nignore_patterns = ["x"]\n[tool.black]\n' }),
    undefined,
  );
  assert.equal(await keptBy({ "setup.cfg": "[yapf:extra]\n", "ruff.toml": "" }), undefined);
});

Deno.test("[tools.ruff] and [tools.black] both off: yapf's files are not looked for", async () => {
  const off = "[tools.ruff]\nenabled = false\n[tools.black]\nenabled = false\n";
  assert.equal(await keptBy({ ".style.yapf": "[style]\n", "poly.toml": off }), undefined);
  assert.equal(
    await keptBy({ ".style.yapf": "[style]\n", "poly.toml": "[tools.black]\nenabled = false\n" }),
    "yapf (.style.yapf)",
  );
});
