import assert from "node:assert/strict";
import {
  assertGolden,
  assertSyntaxError,
  defaultSettings,
  engine,
  fixture,
  golden,
  memoryFile,
} from "../_engine_harness.ts";
import { EngineCrash, EngineRefusal } from "../../../lib/engines/types.ts";

Deno.test("biome lint() reports recommended-rule findings with spans", async () => {
  const biome = await engine("biome");
  const file = await fixture("biome/bad.ts", "typescript");
  const out = await biome.lint!(file, defaultSettings());
  await assertGolden(golden("biome_bad.json"), JSON.stringify(out.diagnostics, null, 2) + "\n");
  assert.ok(out.diagnostics.some((d) => d.code === "suspicious/noDebugger" && d.severity === "error"));
});

Deno.test("biome lint() honours ignore and per-rule levels by rule name", async () => {
  const biome = await engine("biome");
  const file = await fixture("biome/bad.ts", "typescript");
  const out = await biome.lint!(
    file,
    defaultSettings({ ignore: ["noDebugger"], rules: { noDoubleEquals: { level: "warning" } } }),
  );
  assert.ok(!out.diagnostics.some((d) => d.code === "suspicious/noDebugger"));
  assert.equal(out.diagnostics.find((d) => d.code === "suspicious/noDoubleEquals")?.severity, "warning");
});

Deno.test("biome fix() applies safe fixes only", async () => {
  const biome = await engine("biome");
  const file = await fixture("biome/bad.ts", "typescript");
  const out = await biome.fix!(file, defaultSettings());
  assert.ok(out.fixed >= 1);
  assert.ok(out.text.includes("const a = 1"), "useConst is a safe fix");
  assert.ok(out.text.includes("debugger;"), "noDebugger's fix is unsafe and not applied");
});

Deno.test("biome format() matches golden and is idempotent", async () => {
  const biome = await engine("biome");
  const file = await fixture("biome/unformatted.ts", "typescript");
  const once = await biome.format!(file, defaultSettings());
  await assertGolden(golden("biome_unformatted.ts"), once);
  assert.equal(await biome.format!({ ...file, text: once }, defaultSettings()), once);
});

Deno.test("biome format() honours [defaults] line_length and indent_width", async () => {
  const biome = await engine("biome");
  const file = await fixture("biome/unformatted.ts", "typescript");
  const settings = defaultSettings();
  settings.defaults.indent_width = 4;
  const out = await biome.format!(file, settings);
  assert.match(out, /\n {4}return y \+ x\.a;/);
});

Deno.test("biome reports a parse error with line and column, for lint and format", async () => {
  const biome = await engine("biome");
  const file = await fixture("biome/syntax.ts", "typescript");
  await assertSyntaxError(() => biome.lint!(file, defaultSettings()), 1);
  await assertSyntaxError(() => biome.format!(file, defaultSettings()), 1);
});

Deno.test("biome skips a file over its files.maxSize with that reason (lint, format, batch), and checks it when raised", async () => {
  const biome = await engine("biome");
  // A 1.6 MB array literal: biome's workspace ignores files over files.maxSize (1 MiB by default).
  const text = `export const big = [${Array.from({ length: 250_000 }, (_, i) => i).join(",")}];\n`;
  const file = { path: "/tmp/big.js", relPath: "big.js", language: "javascript" as const, text };
  const bytes = new TextEncoder().encode(text).length;
  const reason = new RegExp(`${bytes} bytes, over biome's files\\.maxSize \\(1048576 bytes\\)`);
  await assert.rejects(async () => await biome.lint!(file, defaultSettings()), (e: Error) => {
    assert.ok(e instanceof EngineRefusal, `${e.name}: ${e.message}`);
    assert.match(e.message, reason);
    return true;
  });
  await assert.rejects(async () => await biome.format!(file, defaultSettings()), reason);
  const [batched] = await biome.lintMany!([file], defaultSettings());
  assert.ok(batched instanceof EngineRefusal, String(batched));
  // Raised in biome's own configuration, the file is checked.
  const raised = defaultSettings({ configuration: { files: { maxSize: 4_000_000 } } });
  assert.deepEqual((await biome.lint!(file, raised)).diagnostics, []);
});

Deno.test("biome's refusal of its settings carries biome's reason, never an empty one", async () => {
  const biome = await engine("biome");
  const file = await fixture("biome/unformatted.ts", "typescript");
  // poly.toml's biome tables are checked at load; an engine handed bad settings anyway names the problem.
  await assert.rejects(
    async () => await biome.format!(file, defaultSettings({ indentWidth: "wide" })),
    /^EngineError: invalid biome settings: invalid type: string "wide", expected u8$/,
  );
  const { EngineError } = await import("../../../lib/engines/types.ts");
  assert.equal(new EngineError("  ").message, "the engine failed without giving a reason");
});

Deno.test("biome skips a file under node_modules/ (biome's workspace refuses it) with biome's reason, not an empty error", async () => {
  const biome = await engine("biome");
  const file = {
    path: "/tmp/node_modules/x/index.js",
    relPath: "node_modules/x/index.js",
    language: "javascript" as const,
    text: "export const a = 1;\n",
  };
  for (const run of [() => biome.lint!(file, defaultSettings()), () => biome.format!(file, defaultSettings())]) {
    await assert.rejects(async () => await run(), (e: Error) => {
      assert.ok(e instanceof EngineRefusal, `${e.name}: ${e.message}`);
      assert.match(e.message, /^biome ignores this file: it never checks files under node_modules\//);
      return true;
    });
  }
  const [batched] = await biome.lintMany!([file], defaultSettings());
  assert.ok(batched instanceof EngineRefusal, String(batched));
});

Deno.test("biome skips the lock files it protects (package-lock.json, npm-shrinkwrap.json), as biome format does", async () => {
  const biome = await engine("biome");
  for (const relPath of ["package-lock.json", "sub/npm-shrinkwrap.json"]) {
    const file = { path: `/tmp/${relPath}`, relPath, language: "json" as const, text: '{"a":   1}\n' };
    for (const run of [() => biome.lint!(file, defaultSettings()), () => biome.format!(file, defaultSettings())]) {
      await assert.rejects(async () => await run(), (e: Error) => {
        assert.ok(e instanceof EngineRefusal, `${e.name}: ${e.message}`);
        assert.match(e.message, /protected because another tool handles it/);
        return true;
      });
    }
  }
  // A file that only resembles one is formatted.
  const other = { path: "/tmp/package.json", relPath: "package.json", language: "json" as const, text: '{"a":   1}\n' };
  assert.equal(await biome.format!(other, defaultSettings()), '{\n  "a": 1\n}\n');
});

Deno.test("a file biome crashes on is an errored record saying so, and biome checks the next files in a new module", async () => {
  const biome = await engine("biome");
  const file = (relPath: string, text: string) => memoryFile(`crash/${relPath}`, "javascript", text);
  // 20,000 nested array literals: biome's parser recurses until the WebAssembly stack overflows (its native
  // command line aborts on the same file: "has overflowed its stack").
  const deep = file("deep.js", `export const a = ${"[".repeat(20_000)}${"]".repeat(20_000)};\n`);
  const plain = file("plain.js", "let b = 1;\nexport { b };\n");
  await biome.lint!(plain, defaultSettings());
  assert.equal(biome.warm!(), true);
  // It crashes a new instance of the module too: the crash is the file's, remembered by the result cache.
  await assert.rejects(async () => await biome.lint!(deep, defaultSettings()), (e: Error) => {
    assert.ok(e instanceof EngineCrash && e.repeated, String(e));
    assert.match(
      e.message,
      /^biome crashed on this file twice \(Maximum call stack size exceeded\), the second time in a new instance of its WebAssembly module, so it is not checked;/,
    );
    return true;
  });
  // The crashed module is dropped, whatever its memory holds now; the next file loads a new one.
  assert.equal(biome.warm!(), false);
  const after = await biome.lint!(plain, defaultSettings());
  assert.deepEqual(after.diagnostics.map((d) => d.code), ["style/useConst"]);
  assert.equal(biome.warm!(), true);
  // The batch path too: the crash is that file's error, the rest are checked.
  const batch = await biome.lintMany!([deep, plain], defaultSettings());
  assert.ok(batch[0] instanceof EngineCrash && batch[0].repeated, String(batch[0]));
  assert.ok(!(batch[1] instanceof Error) && batch[1].diagnostics.some((d) => d.code === "style/useConst"));
});
