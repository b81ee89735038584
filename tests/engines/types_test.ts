/**
 * A crash of a WebAssembly engine (lib/engines/types.ts): tried once more in a new
 * instance, and remembered by the result cache only when that one crashes too.
 */
import { equal, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { againOnCrash, EngineCrash, EngineError, type EngineSettings } from "../../lib/engines/types.ts";
import { fromStored, openCache, throughCache, verdictOf } from "../../lib/cache/mod.ts";
import { gofmt } from "../../lib/engines/gofmt/mod.ts";
import { setProcessEnv } from "../_helpers/process_env.ts";
import { tempDir } from "../_helpers/temp.ts";

await setProcessEnv({ POLY_CACHE_HOME: await tempDir({ prefix: "poly-crash-home-" }) });

Deno.test("againOnCrash() gives the second attempt's result when only the first crashed", async () => {
  let calls = 0;
  const out = await againOnCrash(() => {
    if (++calls === 1) throw new EngineCrash("biome", "unreachable");
    return "checked";
  });
  equal(out, "checked");
  equal(calls, 2);
});

Deno.test("againOnCrash() throws a crash that repeats as repeated, naming both tries", async () => {
  let calls = 0;
  await rejects(
    againOnCrash(() => {
      calls++;
      throw new EngineCrash("ruff", "Maximum call stack size exceeded");
    }),
    (e: EngineCrash) => {
      ok(e instanceof EngineCrash && e instanceof EngineError);
      equal(e.repeated, true);
      equal(
        e.message,
        "ruff crashed on this file twice (Maximum call stack size exceeded), the second time in a new instance of " +
          "its WebAssembly module, so it is not checked; the crash is remembered for this text and these settings " +
          "until ruff changes (--no-cache runs it again)",
      );
      return true;
    },
  );
  equal(calls, 2);
});

Deno.test("againOnCrash() does not try again after an inner repeated crash, nor after another error", async () => {
  let calls = 0;
  await rejects(
    againOnCrash(() => {
      calls++;
      throw new EngineCrash("biome", "unreachable", true);
    }),
    /crashed on this file twice/,
  );
  equal(calls, 1);
  await rejects(
    againOnCrash(() => {
      calls++;
      throw new EngineError("biome failed: no");
    }),
    /biome failed: no/,
  );
  equal(calls, 2);
});

Deno.test("a repeated crash is cached like a finding; a single one is not", async () => {
  const repeated = new EngineCrash("biome", "unreachable", true);
  const verdict = verdictOf(repeated);
  ok(verdict, "a repeated crash has a stored form");
  equal(verdictOf(new EngineCrash("biome", "unreachable")), undefined, "a single crash has none");
  try {
    fromStored(JSON.parse(JSON.stringify(verdict)));
    ok(false, "a stored crash throws");
  } catch (e) {
    ok(e instanceof EngineCrash && e.repeated);
    equal(e.message, repeated.message);
  }

  // Through the result cache: the repeated crash's computation runs once, the single crash's every time.
  const dir = await tempDir({ prefix: "poly-crash-anchor-" });
  const cache = await openCache({ anchor: dir, build: "test-build" });
  const settings: EngineSettings = {
    defaults: { line_length: 120, line_ending: "lf", final_newline: true, trim_trailing_whitespace: true },
    tool: {},
  };
  const file = { path: join(dir, "a.go"), relPath: "a.go", language: "go" as const, text: "package main\n" };
  for (const [crash, runs] of [[repeated, 1], [new EngineCrash("biome", "unreachable"), 2]] as const) {
    let calls = 0;
    const other = { ...file, text: `${file.text}// ${runs}\n` };
    for (let i = 0; i < 2; i++) {
      await rejects(
        throughCache(cache, "fmt", gofmt, other, settings, () => {
          calls++;
          throw crash;
        }),
        (e: Error) => e.message === crash.message,
      );
    }
    equal(calls, runs, crash.message);
  }
  cache.close();
});
