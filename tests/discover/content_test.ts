import { deepEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import {
  classifyContent,
  detectTemplate,
  firstInvalidUtf8,
  formatBytes,
  readCandidate,
  sizeReason,
} from "../../lib/discover/mod.ts";
import { IS_ROOT, makeTree } from "./_tree.ts";
import { fileStamp } from "../../lib/fs/atomic.ts";

const enc = (s: string) => new TextEncoder().encode(s);

Deno.test("classifyContent() returns text, keeping a byte order mark", () => {
  deepEqual(classifyContent(enc("\uFEFFx = 1\n"), 100), { text: "\uFEFFx = 1\n" });
  deepEqual(classifyContent(new Uint8Array(), 100), { text: "" });
});

Deno.test("classifyContent() skips binary files by a NUL byte in the first 8 KB", () => {
  deepEqual(classifyContent(new Uint8Array([0x89, 0x50, 0x00, 0x47]), 100), {
    skip: "binary file (a NUL byte at offset 2)",
  });
  const late = new Uint8Array(9000).fill(0x61);
  late[8500] = 0;
  deepEqual(classifyContent(late, 10_000), { text: "a".repeat(8500) + "\0" + "a".repeat(499) });
});

Deno.test("classifyContent() skips invalid UTF-8 naming the byte and line", () => {
  const bytes = new Uint8Array([...enc("ok\nline two \u00e9 "), 0xff, ...enc("\n")]);
  deepEqual(classifyContent(bytes, 100), { skip: "not valid UTF-8 at byte 15 (line 2): poly reads UTF-8 text only" });
});

Deno.test("classifyContent() keeps a real U+FFFD and a byte order mark, and skips what only decodes as U+FFFD", () => {
  deepEqual(classifyContent(enc("a \uFFFD b\n"), 100), { text: "a \uFFFD b\n" });
  deepEqual(classifyContent(new Uint8Array([0xef, 0xbb, 0xbf, ...enc("x\n")]), 100), { text: "\uFEFFx\n" });
  // Each decoded lenient as U+FFFD: an overlong form and a lone continuation byte.
  deepEqual(classifyContent(new Uint8Array([0x41, 0xc0, 0xaf]), 100), {
    skip: "not valid UTF-8 at byte 1 (line 1): poly reads UTF-8 text only",
  });
  deepEqual(classifyContent(new Uint8Array([...enc("\uFFFD\n"), 0x80]), 100), {
    skip: "not valid UTF-8 at byte 4 (line 2): poly reads UTF-8 text only",
  });
});

Deno.test("firstInvalidUtf8() rejects overlong forms, surrogates and truncated sequences", () => {
  equal(firstInvalidUtf8(enc("plain ascii, \u00e9, \u20ac, \u{1F600}")), -1);
  equal(firstInvalidUtf8(new Uint8Array([0x41, 0xc0, 0xaf])), 1); // overlong "/"
  equal(firstInvalidUtf8(new Uint8Array([0xe0, 0x80, 0xaf])), 0); // overlong 3-byte
  equal(firstInvalidUtf8(new Uint8Array([0xed, 0xa0, 0x80])), 0); // UTF-16 surrogate
  equal(firstInvalidUtf8(new Uint8Array([0x41, 0x42, 0xe2, 0x82])), 2); // truncated
  equal(firstInvalidUtf8(new Uint8Array([0xf4, 0x90, 0x80, 0x80])), 0); // beyond U+10FFFF
  equal(firstInvalidUtf8(new Uint8Array([0x80])), 0); // lone continuation
});

Deno.test("classifyContent() skips files over the size limit with both sizes", () => {
  deepEqual(classifyContent(new Uint8Array(3_355_444), 2 * 1024 * 1024), {
    skip: "file is 3.2 MB, over the 2 MB limit ([discovery] max_file_size)",
  });
});

Deno.test("sizeReason() shows exact bytes when rounding would hide the difference", () => {
  equal(
    sizeReason(2 * 1024 * 1024 + 1, 2 * 1024 * 1024),
    "file is 2097153 bytes, over the 2097152-byte limit ([discovery] max_file_size)",
  );
  equal(sizeReason(2048, 1000), "file is 2 KB, over the 1000-byte limit ([discovery] max_file_size)");
  equal(formatBytes(1536), "1.5 KB");
  equal(formatBytes(512), "512 bytes");
});

Deno.test("readCandidate() reads text and classifies it", async () => {
  const root = await makeTree({ "a.py": "x = 1\n", "big.py": "x".repeat(50), "bin.py": new Uint8Array([1, 0, 2]) });
  // With the stamp of the stat taken before the read (what a rewrite checks the file still is).
  const stamp = fileStamp(await Deno.stat(join(root, "a.py")));
  deepEqual(await readCandidate(join(root, "a.py"), 100), { text: "x = 1\n", bytes: enc("x = 1\n"), stamp });
  deepEqual(await readCandidate(join(root, "big.py"), 10), {
    skip: "file is 50 bytes, over the 10-byte limit ([discovery] max_file_size)",
  });
  deepEqual(await readCandidate(join(root, "bin.py"), 100), { skip: "binary file (a NUL byte at offset 1)" });
});

Deno.test("readCandidate() makes errors of what cannot be read as a file", async () => {
  const root = await makeTree({ "dir.py/inner.py": "" });
  deepEqual(await readCandidate(join(root, "dir.py"), 100), { error: "cannot read: it is a directory, not a file" });
  deepEqual(await readCandidate(join(root, "gone.py"), 100), {
    error: "cannot read: the file does not exist (removed during the run?)",
  });
  const fifo = join(root, "pipe.py");
  const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
  equal(made.code, 0, "mkfifo failed");
  // A FIFO would block a read forever; it is refused without opening it.
  deepEqual(await readCandidate(fifo, 100), { error: "cannot read: it is a named pipe (FIFO), not a regular file" });
});

Deno.test({
  name: "readCandidate() reports permission denied as an error" +
    (IS_ROOT ? " (skipped: running as root, permission bits do not stop root)" : ""),
  ignore: IS_ROOT,
  fn: async () => {
    const root = await makeTree({ "secret.py": "x = 1\n" });
    await Deno.chmod(join(root, "secret.py"), 0o000);
    deepEqual(await readCandidate(join(root, "secret.py"), 100), { error: "cannot read: permission denied" });
  },
});

Deno.test("readCandidate() skips dbt SQL when told the language; Jinja HTML is read (biome lints it, formatters skip it)", async () => {
  const root = await makeTree({
    "page.html": "<ul>\n{% for x in items %}<li>{{ x }}</li>{% endfor %}\n</ul>\n",
    "plain.html": "<p>{{ angular }}</p>\n",
    "model.sql": "select *\nfrom {{ ref('orders') }}\n",
  });
  equal("text" in await readCandidate(join(root, "page.html"), 1000, { language: "html" }), true);
  equal("text" in await readCandidate(join(root, "plain.html"), 1000, { language: "html" }), true);
  deepEqual(await readCandidate(join(root, "model.sql"), 1000, { language: "sql" }), {
    skip: 'template file (a dbt or Jinja template, "{{" at line 2): left alone by every engine',
  });
  equal("text" in await readCandidate(join(root, "model.sql"), 1000), true);
  equal(detectTemplate("python", "x = '{%'"), undefined);
});
