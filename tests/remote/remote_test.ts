/**
 * `poly remote` as a real process against the real `poly mcp --http` process:
 * it prints the tool's document, exits with the report's code for lint (the
 * same results `poly lint --format json` prints), can do exactly what its token
 * allows (a proposal where approval is required, a refusal for a read token),
 * and ends with 2 when the server cannot be used.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runPoly } from "../_helpers/cli.ts";
import { memberWithToken, startHttp } from "../serve/http/_server.ts";
import { tempDir } from "../_helpers/temp.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test("poly remote calls the server's tools as its token allows", opts, async (t) => {
  const root = await tempDir({ prefix: "poly-remote-" });
  await Deno.writeTextFile(join(root, "poly.toml"), '[serve]\nrequire_approval = ["lint_fix"]\n');
  await Deno.writeTextFile(join(root, "a.py"), "import os\n");
  await Deno.writeTextFile(join(root, "b.py"), "x = 1\n");
  const server = await startHttp({ root });
  const act = memberWithToken(server.access, "ana", "member", { access: "act" });
  const read = memberWithToken(server.access, "rita", "member", { access: "read" });
  const remote = (token: string, args: string[], env: Record<string, string> = {}) =>
    runPoly(["remote", "--url", server.url, ...args], { cwd: root, env: { POLY_TOKEN: token, ...env } });
  try {
    const [lintA, lintB, cli, list, proposal, refused, wrong, variable] = await Promise.all([
      remote(act, ["lint", "--arg", "paths=a.py"]),
      remote(act, ["lint", "--json", '{"paths": ["b.py"]}']),
      runPoly(["lint", "--format", "json", "a.py"], { cwd: root }),
      remote(read, []),
      remote(act, ["lint_fix", "--arg", "paths=a.py"]),
      remote(read, ["cache_clean"]),
      remote(act.slice(0, -3) + "abc", ["version"]),
      remote(act, ["--token-env", "MY_TOKEN", "version"], { MY_TOKEN: act }),
    ]);

    await t.step("lint prints the report and exits with its code, as poly lint does", () => {
      assert.equal(lintA.code, 1, lintA.stderr);
      const doc = JSON.parse(lintA.stdout);
      assert.equal(doc.kind, "lint");
      assert.equal(doc.results[0].diagnostics[0].code, "F401");
      assert.equal(cli.code, 1, cli.stderr);
      assert.deepEqual(doc.results, JSON.parse(cli.stdout).results, "the same results as the CLI");
      assert.equal(lintB.code, 0, lintB.stderr);
      assert.equal(JSON.parse(lintB.stdout).summary.checked, 1);
    });

    await t.step("without a tool it lists the server's tools", () => {
      assert.equal(list.code, 0, list.stderr);
      assert.match(list.stdout, /^lint\s+Lint files$/m);
      assert.match(list.stdout, /^approve_change\s/m);
    });

    await t.step("a tool that needs approval prints the proposal and changes nothing", async () => {
      assert.equal(proposal.code, 0, proposal.stderr);
      const doc = JSON.parse(proposal.stdout);
      assert.equal(doc.proposal.status, "pending");
      assert.match(doc.proposal.preview.diff, /^-import os$/m);
      assert.equal(await Deno.readTextFile(join(root, "a.py")), "import os\n");
    });

    await t.step("a read token cannot act: the refusal on stderr, exit 1", () => {
      assert.equal(refused.code, 1);
      assert.equal(refused.stdout, "");
      assert.match(refused.stderr, /"cache_clean" needs act access/);
    });

    await t.step("a wrong token or a variable poly may not read ends with 2", () => {
      assert.equal(wrong.code, 2);
      assert.match(wrong.stderr, /answered 401: Unauthorized: unknown token/);
      assert.equal(variable.code, 2);
      assert.match(variable.stderr, /may read only POLY_\* variables: export the token as POLY_MY_TOKEN/);
    });
  } finally {
    await server.stop();
  }
});
