import assert from "node:assert/strict";
import { PANES } from "../../tui/panes/mod.ts";
import { REPO } from "../_helpers/cli.ts";

Deno.test("docs/dash.md lists every pane, in tab order, with its key", async () => {
  const text = await Deno.readTextFile(`${REPO}/docs/dash.md`);
  const table = text.slice(text.indexOf("## Panes"), text.indexOf("## Keys"));
  const rows = [...table.matchAll(/^\| (\d+) +\| (\w+) +\|/gm)].map((m) => [Number(m[1]), m[2]]);
  assert.deepEqual(rows, PANES.map((p, i) => [i + 1, p.title]));
});
