import assert from "node:assert/strict";
import { type Effect, initialUi, type KeyContext, type KeyInfo, reduce, type UiState } from "../../tui/keys.ts";
import type { PreparedAction } from "../../tui/panes/types.ts";

const action: PreparedAction = { question: "Clean?", run: () => Promise.resolve("done") };

function ctx(over: Partial<KeyContext> = {}): KeyContext {
  return {
    panes: 6,
    positions: 5,
    page: 3,
    canDetail: true,
    canFilter: true,
    action: (k) => (k === "c" ? action : k === "x" ? "no x here" : undefined),
    ...over,
  };
}

function press(state: UiState, keys: (string | KeyInfo)[], c = ctx()): { state: UiState; effects: Effect[] } {
  let s = state;
  let effects: Effect[] = [];
  for (const k of keys) {
    const r = typeof k === "string" ? reduce(s, k, {}, c) : reduce(s, "", k, c);
    s = r.state;
    effects = r.effects;
  }
  return { state: s, effects };
}

Deno.test("reduce() switches tabs with numbers, arrows, h/l and tab, wrapping around", () => {
  const s = initialUi(6);
  assert.equal(press(s, ["3"]).state.tab, 2);
  assert.equal(press(s, ["7"]).state.tab, 0);
  assert.equal(press(s, [{ rightArrow: true }, { rightArrow: true }]).state.tab, 2);
  assert.equal(press(s, [{ leftArrow: true }]).state.tab, 5);
  assert.equal(press(s, ["l", "l", "h"]).state.tab, 1);
  assert.equal(press(s, [{ tab: true }, { tab: true, shift: true }]).state.tab, 0);
});

Deno.test("reduce() moves the selection within the rows, each tab keeping its own", () => {
  const s = initialUi(6);
  assert.equal(press(s, ["j", "j", "k"]).state.cursors[0], 1);
  assert.equal(press(s, [{ downArrow: true }, { downArrow: true }, { upArrow: true }]).state.cursors[0], 1);
  assert.equal(press(s, ["k"]).state.cursors[0], 0);
  assert.equal(press(s, ["G"]).state.cursors[0], 4);
  assert.equal(press(s, ["j", "j", "j", "j", "j", "j", "j"]).state.cursors[0], 4);
  assert.equal(press(s, [{ pageDown: true }]).state.cursors[0], 3);
  assert.equal(press(s, ["G", "g"]).state.cursors[0], 0);
  const moved = press(s, ["j", "j", "2", "j", "1"]).state;
  assert.deepEqual(moved.cursors.slice(0, 2), [2, 1]);
});

Deno.test("reduce() filters live while typing; enter keeps it, esc restores the one before", () => {
  const s = initialUi(6);
  const typing = press(s, ["j", "/", "c", "o", "d"]).state;
  assert.equal(typing.mode, "filter");
  assert.equal(typing.filters[0], "cod");
  assert.equal(typing.cursors[0], 0, "a new filter starts at the top");
  assert.equal(press(typing, ["q"]).state.filters[0], "codq", "q is text while filtering");
  const kept = press(typing, [{ backspace: true }, { return: true }]).state;
  assert.equal(kept.mode, "list");
  assert.equal(kept.filters[0], "co");
  const restored = press(kept, ["/", "x", { escape: true }]).state;
  assert.equal(restored.filters[0], "co");
  assert.equal(press(restored, [{ escape: true }]).state.filters[0], "", "esc in the list clears the filter");
  assert.equal(press(s, ["/"], ctx({ canFilter: false })).state.message, "This pane has no filter.");
});

Deno.test("reduce() opens details with enter and goes back with esc", () => {
  const s = initialUi(6);
  const open = press(s, ["j", { return: true }]).state;
  assert.equal(open.mode, "detail");
  assert.equal(press(open, ["j", "j"]).state.scroll, 2);
  const back = press(open, ["j", { escape: true }]).state;
  assert.equal(back.mode, "list");
  assert.equal(back.cursors[0], 1, "the selection is where it was");
  assert.equal(press(s, [{ return: true }], ctx({ canDetail: false })).state.mode, "list");
  assert.equal(press(open, ["4"]).state.mode, "list", "switching tabs leaves the detail");
});

Deno.test("reduce() runs a pane action only after y", () => {
  const s = initialUi(6);
  const asking = press(s, ["c"]).state;
  assert.equal(asking.mode, "confirm");
  assert.equal(asking.pending, action);
  const yes = press(asking, ["y"]);
  assert.deepEqual(yes.effects, [{ kind: "run", action }]);
  assert.equal(yes.state.mode, "list");
  const no = press(asking, ["n"]);
  assert.deepEqual(no.effects, []);
  assert.match(no.state.message ?? "", /Cancelled/);
  assert.equal(press(asking, [{ return: true }]).effects.length, 0, "enter is not yes");
  assert.equal(press(s, ["x"]).state.message, "no x here");
});

Deno.test("reduce() quits on q and ctrl-c, refreshes on r, shows the keys on ?", () => {
  const s = initialUi(6);
  assert.deepEqual(press(s, ["q"]).effects, [{ kind: "quit" }]);
  assert.deepEqual(reduce(s, "c", { ctrl: true }, ctx()).effects, [{ kind: "quit" }]);
  assert.deepEqual(press(s, ["r"]).effects, [{ kind: "refresh" }]);
  const help = press(s, ["?"]).state;
  assert.equal(help.mode, "help");
  assert.equal(press(help, ["?"]).state.mode, "list");
  assert.deepEqual(press(help, ["q"]).effects, [{ kind: "quit" }]);
});

Deno.test("splitKeys() takes a chunk of several keys one at a time", async () => {
  const { splitKeys } = await import("../../tui/keys.ts");
  assert.deepEqual(splitKeys("j\r", {}), [["j", {}], ["", { return: true }]]);
  assert.deepEqual(splitKeys("j", {}), [["j", {}]]);
  assert.deepEqual(splitKeys("", { downArrow: true }), [["", { downArrow: true }]]);
  assert.deepEqual(splitKeys("ab\x7f", {}), [["a", {}], ["b", {}], ["", { backspace: true }]]);
  const s = initialUi(6);
  let state = s;
  for (const [input, key] of splitKeys("3jj", {})) state = reduce(state, input, key, ctx()).state;
  assert.deepEqual([state.tab, state.cursors[2]], [2, 2]);
});
