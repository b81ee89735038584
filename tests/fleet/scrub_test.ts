import assert from "node:assert/strict";
import { scrub, scrubWithReport } from "../../lib/fleet/scrub.ts";
import { INNOCENT, secretCorpus } from "./_secrets.ts";

Deno.test("scrub() removes every secret of the corpus and names its kind", () => {
  for (const seed of [1, 42, 1337]) {
    for (const s of secretCorpus(seed)) {
      const { text, found } = scrubWithReport(`before\n${s.line}\nafter`);
      assert.ok(!text.includes(s.value), `${s.kind} leaked from: ${s.line}\n→ ${text}`);
      assert.ok(found[s.kind] >= 1, `${s.kind} not reported for ${s.line}: ${JSON.stringify(found)} → ${text}`);
      assert.ok(text.startsWith("before\n") && text.endsWith("\nafter"), `surrounding text damaged: ${text}`);
    }
  }
});

Deno.test("scrub() removes secrets embedded in a worker answer and in JSON", () => {
  const corpus = secretCorpus(7);
  const answer = corpus.map((s) => s.line).join("\n");
  const json = JSON.stringify({ answer, env: Object.fromEntries(corpus.map((s, i) => [`K${i}`, s.value])) });
  for (const text of [scrub(answer), scrub(json)]) {
    for (const s of corpus) {
      // Bare values whose shape alone is not a secret are caught only with their key names.
      if (
        ["aws-secret-key", "bearer-token", "url-credentials", "secret", "private-key"].includes(s.kind) &&
        text.startsWith("{")
      ) continue;
      assert.ok(!text.includes(s.value), `${s.kind} leaked: ${s.value}`);
    }
  }
});

Deno.test("scrub() leaves ordinary technical text alone", () => {
  for (const line of INNOCENT) assert.equal(scrub(line), line);
});

Deno.test("scrub() is idempotent", () => {
  const text = secretCorpus(3).map((s) => s.line).join("\n");
  const once = scrub(text);
  assert.equal(scrub(once), once);
});

Deno.test("scrub() redacts a private key whose end was cut off", () => {
  const cut = ["-----BEGIN ", "PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC"].join("");
  assert.equal(scrub(`key:\n${cut}`), "key:\n[REDACTED:private-key]");
});

Deno.test("scrub() redacts short values of secret-named assignments whatever their length", () => {
  const cases: [string, string][] = [
    ["password=hunter2xyz", "password=[REDACTED:secret]"],
    ["DB_PASSWORD=abc123", "DB_PASSWORD=[REDACTED:secret]"],
    ["mysql -u root --password=s3cr3t -h db", "mysql -u root --password=[REDACTED:secret] -h db"],
    ['{"password": "pw1"}', '{"password": "[REDACTED:secret]"}'],
    ["passwd: hunter2", "passwd: [REDACTED:secret]"],
    ["api_key = 'k9x'", "api_key = '[REDACTED:secret]'"],
    ["token: tkn-42", "token: [REDACTED:secret]"],
    ["SECRET=shh", "SECRET=[REDACTED:secret]"],
    ["https://x.test/cb?token=abc12&next=1", "https://x.test/cb?token=[REDACTED:secret]&next=1"],
  ];
  for (const [line, want] of cases) assert.equal(scrub(line), want, line);
});

Deno.test("scrub() leaves code and prose that merely name a password alone", () => {
  const lines = [
    "password: string;",
    "  token: Token,",
    "const password = req.body.password;",
    "password = getpass()",
    'password: "${DB_PASSWORD}"',
    "PASSWORD=$DB_PASSWORD",
    "token=<your token here>",
    "password: ********",
    "max_tokens=4096",
    "password: see the vault (rotated monthly)",
    "the secret: it is in the vault",
  ];
  for (const line of lines) assert.equal(scrub(line), line);
});
