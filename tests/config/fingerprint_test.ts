/**
 * lib/config/fingerprint.ts: the text configuration is hashed by. One name per
 * meaning: fingerprintJson() (configuration, never throws on a TOML value) and the
 * gateway's canonicalJson() (RFC 8785) give the same text for JSON values and differ
 * only where JSON ends.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { fingerprint, fingerprintJson } from "../../lib/config/mod.ts";
import { canonicalJson } from "../../lib/gateway/canonical.ts";
import { REPO } from "../_helpers/cli.ts";

Deno.test("fingerprintJson() sorts keys at every depth, drops undefined members, and is canonicalJson() on JSON values", () => {
  const value = { b: 1, a: [{ d: true, c: null }, "x", 1.5e-7], u: undefined, "é": { z: 2, A: 3 } };
  assert.equal(fingerprintJson(value), '{"a":[{"c":null,"d":true},"x",1.5e-7],"b":1,"é":{"A":3,"z":2}}');
  assert.equal(fingerprintJson(value), canonicalJson(value));
});

Deno.test("fingerprintJson() takes TOML's inf and nan as null, where canonicalJson() refuses them", () => {
  assert.equal(fingerprintJson({ line_length: Infinity, ratio: NaN }), '{"line_length":null,"ratio":null}');
  assert.match(fingerprint({ x: -Infinity }), /^1\/[0-9a-f]{16}$/);
  assert.throws(() => canonicalJson({ line_length: Infinity }), TypeError);
});

Deno.test("fingerprintJson() hashes a TOML date by its text (two dates are two fingerprints)", async () => {
  const { parse } = await import("smol-toml");
  const a = parse("when = 1979-05-27T07:32:00Z\nday = 1979-05-27\n");
  const b = parse("when = 1979-05-28T07:32:00Z\nday = 1979-05-27\n");
  assert.equal(fingerprintJson(a), '{"day":"1979-05-27","when":"1979-05-27T07:32:00.000Z"}');
  assert.notEqual(fingerprint(a), fingerprint(b));
});

async function* sources(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* sources(path);
    else if (/\.tsx?$/.test(entry.name)) yield path;
  }
}

Deno.test("no two modules export a function by the same canonical-JSON name", async () => {
  const seen = new Map<string, string[]>();
  for await (const path of sources(join(REPO, "lib"))) {
    for (const m of (await Deno.readTextFile(path)).matchAll(/export function (\w*[Cc]anonical\w*)\(/g)) {
      seen.set(m[1], [...seen.get(m[1]) ?? [], relative(REPO, path)]);
    }
  }
  assert.deepEqual([...seen].filter(([, files]) => files.length > 1), []);
});
