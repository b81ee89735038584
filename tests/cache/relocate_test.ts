import assert from "node:assert/strict";
import { ANCHOR_TOKEN, mentionsAnchor, relocated } from "../../lib/cache/relocate.ts";
import { fingerprintJson } from "../../lib/config/fingerprint.ts";

const settings = (root: string) =>
  fingerprintJson({
    configDir: `${root}/packages/app`,
    files: [`${root}/biome.json`, `${root}`],
    outside: "/home/me/.config/ruff/ruff.toml",
    salt: JSON.stringify([`${root}/packages/app`, "abc"]),
    glob: `!${root}/dist/**`,
  });

Deno.test("relocated: two checkouts at different paths give one text", () => {
  const a = relocated(settings("/home/ann/src/repo"), "/home/ann/src/repo");
  const b = relocated(settings("/tmp/ci/repo"), "/tmp/ci/repo");
  assert.equal(a, b);
  assert.ok(a.includes(`"configDir":"${ANCHOR_TOKEN}/packages/app"`), a);
  // A path outside the anchor stays as it is.
  assert.ok(a.includes('"outside":"/home/me/.config/ruff/ruff.toml"'), a);
  // A JSON text inside the JSON (a salt), and a glob's `!`.
  assert.ok(a.includes(`[\\"${ANCHOR_TOKEN}/packages/app\\",\\"abc\\"]`), a);
  assert.ok(a.includes(`"!${ANCHOR_TOKEN}/dist/**"`), a);
});

Deno.test("relocated: a longer name that starts or ends like the anchor is another folder", () => {
  const anchor = "/srv/repo";
  for (const path of ["/srv/repo-2/x", "/srv/repo2", "/srv/repo.old", "/x/srv/repo/y", "a/srv/repo"]) {
    const json = JSON.stringify({ path });
    assert.equal(relocated(json, anchor), json, path);
  }
  assert.equal(relocated('{"p":"/srv/repo"}', anchor), `{"p":"${ANCHOR_TOKEN}"}`);
  assert.equal(relocated('{"p":"/srv/repo/"}', anchor), `{"p":"${ANCHOR_TOKEN}/"}`);
  // An anchor given with a trailing separator is the same folder.
  assert.equal(relocated('{"p":"/srv/repo/a"}', "/srv/repo/"), `{"p":"${ANCHOR_TOKEN}/a"}`);
});

Deno.test("relocated: a text that holds the token already is marked, never confused with a relocated one", () => {
  const literal = JSON.stringify({ p: "\u0000/a" }); // a configuration value with a NUL in it
  const relocatedText = relocated(JSON.stringify({ p: "/srv/repo/a" }), "/srv/repo");
  assert.equal(relocated(literal, "/srv/repo"), `!${literal}`);
  assert.notEqual(relocated(literal, "/srv/repo"), relocatedText);
  assert.equal(relocated(literal, "/other"), `!${literal}`);
});

Deno.test("relocated: Windows paths, escaped in JSON", () => {
  const a = relocated(JSON.stringify({ p: "C:\\Users\\ann\\repo\\pkg" }), "C:\\Users\\ann\\repo");
  const b = relocated(JSON.stringify({ p: "D:\\ci\\repo\\pkg" }), "D:\\ci\\repo");
  assert.equal(a, b);
  assert.equal(a, `{"p":"${ANCHOR_TOKEN}\\\\pkg"}`);
});

Deno.test("relocated: no anchor, or one too short to tell, leaves the text", () => {
  assert.equal(relocated('{"p":"/a"}', undefined), '{"p":"/a"}');
  assert.equal(relocated('{"p":"/a"}', "/"), '{"p":"/a"}');
});

Deno.test("mentionsAnchor: a result quoting a path in the checkout, or in the folder it resolves to", () => {
  const value = (path: string) => JSON.stringify({ diagnostics: [{ title: `cannot find ${path}/tsconfig.json` }] });
  assert.ok(mentionsAnchor(value("/srv/repo/pkg"), "/srv/repo"));
  assert.ok(mentionsAnchor(value("/srv/repo"), "/srv/repo"));
  assert.ok(!mentionsAnchor(value("/srv/repo-2"), "/srv/repo"));
  assert.ok(!mentionsAnchor(JSON.stringify({ diagnostics: [] }), "/srv/repo"));
  assert.ok(mentionsAnchor(value("/private/srv/repo/x"), "/srv/repo", "/private/srv/repo"));
  // Twice in a row (the pattern is global: its position must not carry over).
  assert.ok(mentionsAnchor(value("/srv/repo/a"), "/srv/repo"));
  assert.ok(mentionsAnchor(value("/srv/repo/a"), "/srv/repo"));
});
