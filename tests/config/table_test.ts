import { deepEqual, equal } from "node:assert/strict";
import { parse } from "smol-toml";
import { isTable, tableOf } from "../../lib/config/table.ts";

Deno.test("isTable(): a parsed table is; an array, null, a scalar or a TOML date is not", () => {
  const doc = parse('a = { b = 1 }\nc = [1]\nd = 1979-05-27T07:32:00Z\ne = "x"\n');
  equal(isTable(doc), true);
  equal(isTable(doc.a), true);
  for (const key of ["c", "d", "e"]) equal(isTable(doc[key]), false, key);
  equal(isTable(null), false);
  equal(isTable(undefined), false);
  // tableOf(): the table itself, else an empty one.
  equal(tableOf(doc.a), doc.a);
  for (const key of ["c", "d", "e", "absent"]) deepEqual(tableOf(doc[key]), {}, key);
});
