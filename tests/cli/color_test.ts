import { equal } from "node:assert/strict";
import { colorMode } from "../../lib/cli/color.ts";

const env = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("colorMode() lets always and never decide, then FORCE_COLOR, then NO_COLOR, then the terminal", () => {
  equal(colorMode("always", false, env({ NO_COLOR: "1" })), true);
  equal(colorMode("never", true, env({ FORCE_COLOR: "1" })), false);
  equal(colorMode("auto", false, env({ FORCE_COLOR: "1" })), true, "FORCE_COLOR colours a pipe");
  equal(colorMode("auto", true, env({ FORCE_COLOR: "0" })), false, "FORCE_COLOR=0 turns colour off");
  equal(colorMode("auto", false, env({ FORCE_COLOR: "1", NO_COLOR: "1" })), true, "FORCE_COLOR before NO_COLOR");
  equal(colorMode("auto", true, env({ NO_COLOR: "1" })), false);
  equal(colorMode("auto", true, env({ NO_COLOR: "" })), true, "an empty NO_COLOR is unset");
  equal(colorMode("auto", false, env({})), false);
});
