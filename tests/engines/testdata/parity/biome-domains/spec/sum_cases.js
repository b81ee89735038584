import { expect, it } from "vitest";

it.only("adds", () => {
  expect(1 + 1).toBe(2);
});
