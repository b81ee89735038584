import assert from "node:assert/strict";
import { IniError, parseIni } from "../../../lib/config/native/_ini.ts";

Deno.test("parseIni() reads values as configparser does: continuations, comments between them, blank lines, `:`", () => {
  const sections = parseIni(
    [
      "[metadata]",
      "name = x",
      "",
      "[flake8]",
      "Max-Line-Length: 100",
      "ignore =",
      "    # a comment between the codes is dropped",
      "    E203,",
      "",
      "    W503",
      "",
      "exclude = .git,build ; not a comment",
      "; a comment",
    ].join("\n"),
  );
  const flake8 = sections.get("flake8")!;
  assert.equal(flake8.get("max-line-length"), "100", "keys are lower-cased");
  assert.equal(flake8.get("ignore"), "\nE203,\n\nW503", "a blank line inside the value is kept, a trailing one not");
  assert.equal(flake8.get("exclude"), ".git,build ; not a comment", "no comment after a value");
  assert.equal(sections.get("metadata")!.get("name"), "x");
});

Deno.test("parseIni() puts [DEFAULT] keys beneath every section, the section's own winning", () => {
  const sections = parseIni("[DEFAULT]\nmax-line-length = 88\nx = 1\n[flake8]\nx = 2\n");
  assert.deepEqual([...sections.get("flake8")!], [["max-line-length", "88"], ["x", "2"]]);
});

Deno.test("parseIni() refuses what configparser refuses: a line it cannot read, a key or section twice", () => {
  const refused = (text: string) => {
    try {
      parseIni(text);
    } catch (e) {
      assert.ok(e instanceof IniError);
      return `${e.kind}@${e.line}`;
    }
    return "read";
  };
  assert.equal(refused("key = 1\n[flake8]\n"), "parsing@1");
  assert.equal(refused("[flake8]\njust words\n"), "parsing@2");
  assert.equal(refused("[flake8]\n= 1\n"), "parsing@2");
  assert.equal(refused("[flake8]\na = 1\nA = 2\n"), "duplicate@3");
  assert.equal(refused("[flake8]\n[flake8]\n"), "duplicate@2");
  assert.equal(refused("[flake8]\n  indented = 1\n"), "read", "an indented first key is a key");
});
