import { assertEquals } from "./_assert.ts";
import { ENGINE_IDS, LANGUAGES } from "../../lib/config/mod.ts";

Deno.test("ENGINE_IDS accepts every engine the registry registers", async () => {
  const registry = await import("../../lib/engines/registry.ts");
  const missing = registry.ENGINE_IDS.filter((id: string) => !(ENGINE_IDS as readonly string[]).includes(id));
  assertEquals(missing, [], "add these ids to lib/config/known.ts so [lint.<lang>.<id>] is accepted");
});

Deno.test("LANGUAGES is sorted and has no duplicates", () => {
  assertEquals([...LANGUAGES], [...new Set(LANGUAGES)].sort());
});
