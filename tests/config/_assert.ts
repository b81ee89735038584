/**
 * The few assertions config tests use, on top of `node:assert/strict`.
 *
 * @module
 */
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";

/** Asserts `value` is truthy. */
export function assert(value: unknown, message?: string): asserts value {
  ok(value, message);
}

/** Deep equality. */
export function assertEquals<T>(actual: T, expected: T, message?: string): void {
  deepStrictEqual(actual, expected, message);
}

/** Identity. */
export function assertStrictEquals<T>(actual: T, expected: T, message?: string): void {
  strictEqual(actual, expected, message);
}

/** Regular expression match. */
export function assertMatch(actual: string, pattern: RegExp, message?: string): void {
  match(actual, pattern, message);
}

/** Asserts `fn` rejects with an instance of `type`, and returns the error. */
export async function assertRejects<E extends Error>(
  fn: () => Promise<unknown>,
  // deno-lint-ignore no-explicit-any
  type: new (...args: any[]) => E,
): Promise<E> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof type) return error;
    throw new Error(`expected ${type.name}, got ${error instanceof Error ? `${error.name}: ${error.message}` : error}`);
  }
  throw new Error(`expected ${type.name}, but nothing was thrown`);
}
