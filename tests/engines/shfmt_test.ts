import { equal } from "node:assert/strict";
import { shfmt } from "../../lib/engines/shfmt/mod.ts";
import { fixture, formatGoldenTests, formatSyntaxErrorTest, missing, native, settings } from "./_harness.ts";

formatGoldenTests(shfmt, [
  { fixture: "shfmt/unformatted.sh", language: "shell" },
]);
formatSyntaxErrorTest(shfmt, { fixture: "shfmt/syntax.sh", language: "shell" }, { line: 2, column: 1 });

Deno.test("shfmt format() honours indent_width and the tool's flags", async () => {
  const file = await fixture("shfmt/unformatted.sh", "shell");
  const engine = await shfmt.load();
  const four = await engine.format!(file, settings({}, { indent_width: 4 }));
  equal(four.includes("\n    greet"), true);
  const tabs = await engine.format!(file, settings({ indent: 0, func_next_line: true }));
  equal(tabs.includes("greet()\n{"), true);
  equal(tabs.includes("\n\tgreet"), true);
});

Deno.test({
  name: "shfmt format() equals the native shfmt",
  ignore: await missing("shfmt", "shfmt parity"),
  async fn() {
    const file = await fixture("shfmt/unformatted.sh", "shell");
    const ours = await (await shfmt.load()).format!(file, settings());
    equal(ours, await native("shfmt", ["-filename", "unformatted.sh"], file.text));
    const four = await (await shfmt.load()).format!(file, settings({}, { indent_width: 4 }));
    equal(four, await native("shfmt", ["-i", "4", "-filename", "unformatted.sh"], file.text));
  },
});
