import assert from "node:assert/strict";
import {
  DPRINT_PLUGIN_RELEASES,
  dprintExcluded,
  pluginName,
  pluginVersion,
} from "../../../lib/config/native/dprint.ts";

Deno.test("pluginName() reads a plugin's name from its URL or npm specifier", () => {
  assert.equal(pluginName("https://plugins.dprint.dev/typescript-0.93.0.wasm"), "typescript");
  assert.equal(pluginName("https://plugins.dprint.dev/g-plane/markup_fmt-v0.19.0.wasm"), "markup_fmt");
  assert.equal(pluginName("https://plugins.dprint.dev/exec-0.5.0.json@abc123"), "exec");
  assert.equal(pluginName("npm:@dprint/toml@0.7.0"), "toml");
  assert.equal(pluginName("npm:@dprint/exec@0.7.3/plugin.json@7047"), "exec");
  assert.equal(pluginName("npm:dprint-plugin-malva@0.16.0"), "malva");
});

Deno.test("pluginVersion() reads the release a plugin URL or npm specifier pins; none where it names none", () => {
  assert.equal(pluginVersion("https://plugins.dprint.dev/typescript-0.93.0.wasm"), "0.93.0");
  assert.equal(pluginVersion("https://plugins.dprint.dev/g-plane/markup_fmt-v0.19.0.wasm"), "0.19.0");
  assert.equal(pluginVersion("https://plugins.dprint.dev/exec-0.5.0.json@abc123"), "0.5.0");
  assert.equal(pluginVersion("npm:@dprint/json@0.23.0"), "0.23.0");
  assert.equal(pluginVersion("npm:@dprint/exec@0.7.3/plugin.json@7047"), "0.7.3");
  assert.equal(pluginVersion("npm:dprint-plugin-malva@0.16.0"), "0.16.0");
  assert.equal(pluginVersion("https://plugins.dprint.dev/json-latest.wasm"), undefined);
  assert.equal(pluginVersion("./plugins/json.wasm"), undefined);
});

Deno.test("the plugin releases poly compares with are deno.json's pins", async () => {
  const { imports } = JSON.parse(await Deno.readTextFile(new URL("../../../deno.json", import.meta.url)));
  for (const [name, version] of Object.entries(DPRINT_PLUGIN_RELEASES)) {
    assert.equal(imports[`@dprint/${name}`], `npm:@dprint/${name}@${version}`, name);
  }
});

Deno.test("dprintExcluded() applies excludes to the file and its folders, includes to the file or a folder above", () => {
  const native = (include?: string[]) => ({
    files: [{ path: "/r/dprint.json", hash: "0" }],
    options: {},
    root: "/r",
    dprint: true as const,
    exclude: { fmt: ["target", "**/*-lock.json", "**/node_modules"].map((pattern) => ({ pattern, base: "/r" })) },
    ...(include ? { include: include.map((pattern) => ({ pattern, base: "/r" })) } : {}),
  });
  assert.match(
    dprintExcluded(native(), "/r/target/debug/x.toml") ?? "",
    /"target" in excludes of "..\/..\/dprint.json"/,
  );
  assert.match(dprintExcluded(native(), "/r/web/package-lock.json") ?? "", /-lock\.json/);
  assert.equal(dprintExcluded(native(), "/r/web/a/node_modules/x/y.json"), "excluded by dprint: in node_modules");
  assert.equal(dprintExcluded(native(), "/r/src/main.ts"), undefined);
  assert.equal(dprintExcluded(native(["src"]), "/r/src/deep/main.ts"), undefined);
  assert.match(dprintExcluded(native(["src/**/*.ts"]), "/r/docs/a.md") ?? "", /not in dprint's includes/);
});
