import assert from "node:assert/strict";
import {
  assertGolden,
  assertSyntaxError,
  defaultSettings,
  engine,
  fixture,
  golden,
  memoryFile,
} from "./_engine_harness.ts";
import { EngineCrash, EngineRefusal } from "../../lib/engines/types.ts";

Deno.test("ruff lint() reports findings with spans, safe fixes only", async () => {
  const ruff = await engine("ruff");
  const file = await fixture("ruff/bad.py", "python");
  const out = await ruff.lint!(file, defaultSettings({ select: ["E", "F"] }));
  await assertGolden(golden("ruff_bad.json"), JSON.stringify(out.diagnostics, null, 2) + "\n");
  const e711 = out.diagnostics.find((d) => d.code === "E711")!;
  assert.equal(e711.fix, undefined, "E711's fix is unsafe and must not be offered");
  assert.ok(out.diagnostics.find((d) => d.code === "F401")?.fix, "F401's fix is safe");
});

Deno.test("ruff lint() honours ignore and per-rule levels", async () => {
  const ruff = await engine("ruff");
  const file = await fixture("ruff/bad.py", "python");
  const out = await ruff.lint!(
    file,
    defaultSettings({
      select: ["E", "F"],
      ignore: ["F401"],
      rules: { E711: { level: "warning" }, F541: { level: "off" } },
    }),
  );
  const codes = out.diagnostics.map((d) => `${d.code}:${d.severity}`);
  assert.deepEqual(codes.sort(), ["E201:error", "E202:error", "E711:warning"].filter((c) => codes.includes(c)).sort());
  assert.ok(!codes.some((c) => c.startsWith("F401") || c.startsWith("F541")));
  assert.ok(codes.includes("E711:warning"));
});

Deno.test("ruff fix() applies safe fixes and leaves unsafe ones", async () => {
  const ruff = await engine("ruff");
  const file = await fixture("ruff/bad.py", "python");
  const out = await ruff.fix!(file, defaultSettings({ select: ["E", "F"] }));
  assert.ok(out.fixed >= 2, `fixed ${out.fixed}`);
  assert.ok(!out.text.includes("import os"), "unused import removed");
  assert.ok(out.text.includes('y = "plain"'), "f-string without placeholders fixed");
  assert.ok(out.text.includes("x == None"), "unsafe E711 fix not applied");
  await assertGolden(golden("ruff_bad.fixed.py"), out.text);
});

Deno.test("ruff format() matches golden and is idempotent", async () => {
  const ruff = await engine("ruff");
  const file = await fixture("ruff/unformatted.py", "python");
  const once = await ruff.format!(file, defaultSettings());
  await assertGolden(golden("ruff_unformatted.py"), once);
  assert.equal(await ruff.format!({ ...file, text: once }, defaultSettings()), once);
});

Deno.test("ruff reports a syntax error with line and column, for lint and format", async () => {
  const ruff = await engine("ruff");
  const file = await fixture("ruff/syntax.py", "python");
  await assertSyntaxError(() => ruff.lint!(file, defaultSettings()), 1);
  await assertSyntaxError(() => ruff.format!(file, defaultSettings()), 1);
});

Deno.test("ruff rejects an unknown setting as an engine error, not a crash", async () => {
  const ruff = await engine("ruff");
  const file = await fixture("ruff/bad.py", "python");
  await assert.rejects(
    async () => await ruff.lint!(file, defaultSettings({ "no-such-setting": 1 })),
    /invalid ruff settings/,
  );
});

Deno.test("a file ruff crashes on is an errored record saying so, and ruff checks the next files in a new module", async () => {
  const ruff = await engine("ruff");
  const file = (relPath: string, text: string) => memoryFile(`crash/${relPath}`, "python", text);
  // 20,000 nested list displays: ruff's parser recurses until the WebAssembly stack overflows.
  const deep = file("deep.py", `x = ${"[".repeat(20_000)}${"]".repeat(20_000)}\n`);
  const plain = file("plain.py", "import os\n");
  for (const run of [() => ruff.lint!(deep, defaultSettings()), () => ruff.format!(deep, defaultSettings())]) {
    await assert.rejects(async () => await run(), (e: Error) => {
      assert.ok(e instanceof EngineCrash && e.repeated, String(e));
      assert.match(e.message, /^ruff crashed on this file twice \(Maximum call stack size exceeded\), the second time/);
      return true;
    });
    // The next file is checked, by a new instance of the module.
    assert.deepEqual((await ruff.lint!(plain, defaultSettings())).diagnostics.map((d) => d.code), ["F401"]);
  }
});

Deno.test("ruff refuses a stub (.pyi) for lint, fix and format: the WebAssembly build would read it as a module", async () => {
  const ruff = await engine("ruff");
  // A stub as ruff 0.16.9 formats it and finds clean (checked with its command line): a forward reference, and no
  // blank lines around `...` bodies.
  const stub = memoryFile(
    "pkg/_core.pyi",
    "python",
    "class A:\n    def f(self) -> B: ...\n    def g(self) -> None: ...\n\nclass B: ...\n",
  );
  const settings = defaultSettings({ select: ["E", "F"] });
  for (
    const step of [
      () => ruff.lint!(stub, settings),
      () => ruff.fix!(stub, settings),
      () => ruff.format!(stub, settings),
    ]
  ) {
    await assert.rejects(
      async () => await step(),
      (e: unknown) => e instanceof EngineRefusal && /a stub \(\.pyi\)/.test(e.message),
    );
  }
  // The same text as a module is checked (and would be reformatted).
  const module = { ...stub, path: stub.path.replace(/\.pyi$/, ".py"), relPath: stub.relPath.replace(/\.pyi$/, ".py") };
  assert.notEqual(await ruff.format!(module, settings), module.text);
});
