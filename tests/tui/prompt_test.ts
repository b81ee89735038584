import assert from "node:assert/strict";
import { callerPrompt, stripBudget } from "../../tui/data/prompt.ts";
import {
  budgetNote,
  explorePrompt,
  readSlicePrompt,
  runFilteredPrompt,
  webLookupPrompt,
  workerPrompt,
} from "../../lib/fleet/prompts.ts";
import { storedPreview } from "./_fixture.ts";
import { fixtureEnv } from "./_env.ts";

/** As lib/fleet/run.ts stores a prompt: its first 200 characters. */
const stored = (sent: string) => sent.slice(0, 200);

Deno.test("callerPrompt() takes poly's time budget off, whole or cut where the preview ends", () => {
  for (const minutes of [1, 10, 30, 120]) {
    const note = budgetNote(minutes * 60_000);
    assert.deepEqual(callerPrompt(stored("Fix the flaky test in lib/run" + note)), {
      text: "Fix the flaky test in lib/run",
      framed: true,
    });
    assert.equal(callerPrompt(stored("yes" + note)).text, "yes", "a short follow-up is all the caller said");
    // Cut anywhere inside the note.
    for (let keep = 0; keep <= note.length; keep++) {
      const asked = "a".repeat(200 - keep);
      assert.equal(stripBudget(stored(asked + note)), asked, `cut ${keep} characters into the note`);
    }
  }
  assert.deepEqual(callerPrompt("Plain prompt\n\nwith a paragraph"), {
    text: "Plain prompt\n\nwith a paragraph",
    framed: false,
  });
  assert.deepEqual(callerPrompt("The"), { text: "The", framed: false }, "a prompt that begins like a framing is kept");
});

Deno.test("callerPrompt() takes each tool's framing off, and says when only the framing was stored", () => {
  assert.equal(callerPrompt(stored(explorePrompt({ files: ["a.ts", "b.ts"] }))).text, "a.ts, b.ts");
  assert.equal(callerPrompt(stored(workerPrompt("Compare three caches", 1, 3))).text, "Compare three caches");
  assert.equal(
    callerPrompt(stored(runFilteredPrompt({ command: "deno test", want: "x" }) + budgetNote(60_000))).framed,
    true,
  );
  // The framing of these fills the 200 characters the fleet keeps: none of the caller's words are stored.
  for (
    const sent of [
      explorePrompt({ question: "Where is the cache key made?" }),
      webLookupPrompt({ query: "MCP tasks" }),
      readSlicePrompt({ files: ["a.ts"], want: "the parser" }),
    ]
  ) assert.deepEqual(callerPrompt(stored(sent)), { text: "", framed: true });
});

Deno.test("loader reads each session's prompt as the caller wrote it, not poly's framing", async () => {
  const env = await fixtureEnv();
  try {
    const sessions = (await env.loader.load()).fleet.data!.sessions;
    const delegate = sessions.find((s) => s.handle === "codex:019a-a1")!;
    assert.match(delegate.preview, /\[Time budget: about 30 min/, "the store holds poly's time budget");
    assert.equal(
      delegate.prompt,
      "Add a --verbose flag to the CLI and document it in the README; keep the help output stable.",
    );
    const fan = sessions.find((s) => s.handle === "codex:019a-e5")!;
    assert.equal(fan.prompt, "Compare three ways to cache engine results");
    const explore = sessions.find((s) => s.handle === "claude:5f2c-b2")!;
    assert.equal(explore.preview, storedPreview("explore", "Where does the cache key include the build identity?"));
    assert.deepEqual([explore.prompt, explore.promptFramed], ["", true]);
    for (const s of sessions) assert.doesNotMatch(s.prompt, /Time budget|workspace is mounted/);
  } finally {
    await env.close();
  }
});
