/**
 * redactor() and the seal ledger: every value sealed or opened for a server,
 * whatever its kind (bearer, OAuth blob, an environment value), is found by
 * openedFor(server) and redacted as written, URL-encoded or JSON-escaped, in
 * text, values (keys too) and errors (their causes too).
 */
import assert from "node:assert/strict";
import { McpError } from "../../lib/gateway/_sdk.ts";
import { MIN_SECRET_CHARS, redactor, SEALED_LABEL, secretValues } from "../../lib/gateway/redact.ts";
import { openedFor, purposeServer, seal, unseal } from "../../lib/gateway/seal.ts";
import { sealedSecretsOf } from "../../lib/gateway/upstream.ts";
import { tempDir } from "../_helpers/temp.ts";

Deno.test("openedFor() lists what this process sealed or opened for one server, of any kind", async () => {
  const home = await tempDir({ prefix: "poly-seal-" });
  const env = await seal("env-value-for-fx-0123", "env:fx:API_KEY", home);
  await seal("bearer-for-fx-abcdef", "bearer:fx", home);
  await seal("bearer-for-fx2-abcdef", "bearer:fx2", home);
  assert.deepEqual(openedFor("fx").sort(), ["bearer-for-fx-abcdef", "env-value-for-fx-0123"]);
  assert.deepEqual(openedFor("fx2"), ["bearer-for-fx2-abcdef"]);
  assert.deepEqual(openedFor("nobody"), []);
  assert.equal(await unseal(env, "env:fx:API_KEY", home), "env-value-for-fx-0123");
  assert.equal(purposeServer("oauth:github"), "github");
  assert.equal(purposeServer("env:github/TOKEN"), "github");
  assert.equal(purposeServer("nothing"), undefined);
});

Deno.test("secretValues() finds the tokens, client secret, verifier and state inside a sealed JSON blob", () => {
  const blob = JSON.stringify({
    client: { client_id: "client-public-id", client_secret: "client-secret-value" },
    tokens: { access_token: "access-token-value", token_type: "Bearer", refresh_token: "refresh-token-value" },
    verifier: "pkce-verifier-value",
    state: "oauth-state-value",
    discovery: { authorizationServerUrl: "https://auth.example.com" },
  });
  const values = secretValues(blob);
  for (
    const v of ["client-secret-value", "access-token-value", "refresh-token-value", "pkce-verifier-value"]
  ) assert.ok(values.includes(v), v);
  assert.ok(values.includes("oauth-state-value"));
  assert.ok(!values.includes("client-public-id") && !values.includes("Bearer"));
  assert.ok(!values.includes("https://auth.example.com"));
  assert.deepEqual(secretValues("plain-token"), ["plain-token"]);
  const env = JSON.stringify({ DATABASE_URL: "postgres://db/main", DEBUG: "1" });
  assert.deepEqual(
    secretValues(env),
    ["postgres://db/main", "1"],
    "a flat map (an environment): every value, not the text",
  );
});

Deno.test("redactor() redacts every form of a secret in text, values, keys and errors; short values are left", () => {
  const secret = "s3cr3t/value+with=chars";
  const r = redactor([secret, "abc", JSON.stringify({ tokens: { access_token: "oauth-access-1234" } })]);
  assert.equal(r.text(`a ${secret} b`), `a ${SEALED_LABEL} b`);
  assert.equal(r.text(`q=${encodeURIComponent(secret)}`), `q=${SEALED_LABEL}`);
  assert.equal(r.text("abc stays"), "abc stays", `values under ${MIN_SECRET_CHARS} characters are not searched`);
  assert.equal(r.text("Bearer oauth-access-1234"), `Bearer ${SEALED_LABEL}`);
  const fleet = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
  assert.equal(r.text(`leaked ${fleet}`), "leaked [REDACTED:github-token]", "what the fleet scrubber knows");
  const v = r.value({ [secret]: [1, { deep: `x${secret}x` }], n: 3, ok: true, nil: null });
  assert.deepEqual(v, { [SEALED_LABEL]: [1, { deep: `x${SEALED_LABEL}x` }], n: 3, ok: true, nil: null });
  const inner = new McpError(-32603, `denied ${secret}`, { header: secret });
  const outer = new Error(`call failed: ${inner.message}`, { cause: inner });
  assert.equal(r.error(outer), outer);
  assert.ok(!outer.message.includes(secret) && !String(outer.stack).includes(secret));
  assert.ok(!inner.message.includes(secret) && !JSON.stringify(inner.data).includes(secret));
  assert.ok(inner instanceof McpError && inner.code === -32603, "the cause keeps its type and code");
});

Deno.test("sealedSecretsOf() gives every value of a sealed environment of the server, but not short ones", async () => {
  const home = await tempDir({ prefix: "poly-seal-" });
  await seal(JSON.stringify({ DATABASE_URL: "postgres://u:pw@db/main", DEBUG: "1" }), "env:envsrv", home);
  const secrets = sealedSecretsOf("envsrv");
  assert.ok(secrets.includes("postgres://u:pw@db/main"));
  assert.ok(!secrets.includes("1"), "values too short to search for are left out");
  assert.deepEqual(sealedSecretsOf("other-server"), []);
});
