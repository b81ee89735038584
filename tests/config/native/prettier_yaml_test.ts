import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO } from "../../_helpers/cli.ts";
import { tempDir } from "../../_helpers/temp.ts";

/**
 * Runs `body` in a fresh Deno process (its module cache empty) after importing the prettier reader, and returns what
 * it prints. `yamlLoaded()` there tells whether npm `yaml` has been evaluated.
 */
async function fresh(body: string): Promise<string> {
  const dir = await tempDir({ prefix: "poly-prettier-yaml-" });
  const script = join(dir, "probe.ts");
  await Deno.writeTextFile(
    script,
    `import Module from "node:module";
const cache = (Module as unknown as { _cache: Record<string, unknown> })._cache;
const yamlLoaded = () => Object.keys(cache).some((k) => k.includes("/yaml@"));
const { prettierOptions } = await import(${JSON.stringify(join(REPO, "lib/config/native/prettier.ts"))});
${body}
`,
  );
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-lock", "--node-modules-dir=manual", "--config", join(REPO, "deno.json"), script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  await Deno.remove(dir, { recursive: true });
  const text = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return text.trim();
}

Deno.test("prettierOptions() reads a JSON .prettierrc without loading the YAML parser", async () => {
  const out = await fresh(`
const options = await prettierOptions({ path: "/r/.prettierrc", hash: "", text: '{"semi": false, "tabWidth": 4}' }, ".prettierrc");
console.log(JSON.stringify({ options, before: yamlLoaded() }));
const yaml = await prettierOptions({ path: "/r/.prettierrc", hash: "", text: "semi: false\\n" }, ".prettierrc");
console.log(JSON.stringify({ yaml, after: yamlLoaded() }));
`);
  const [first, second] = out.split("\n").map((line) => JSON.parse(line));
  assert.deepEqual(first, { options: { semi: false, tabWidth: 4 }, before: false });
  assert.deepEqual(second, { yaml: { semi: false }, after: true });
});
