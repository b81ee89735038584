/**
 * Assertions for gateway refusals.
 *
 * @module
 */
import assert from "node:assert/strict";
import { GatewayError } from "../../lib/gateway/mod.ts";

/** Awaits `promise` (or calls `fn`) and asserts it throws a GatewayError with `code` (and a message matching `pattern`). */
export async function rejects(
  promise: Promise<unknown> | (() => unknown),
  code: string,
  pattern?: RegExp | string,
): Promise<GatewayError> {
  try {
    await (typeof promise === "function" ? promise() : promise);
  } catch (error) {
    assert.ok(
      error instanceof GatewayError,
      `expected a GatewayError, got ${error instanceof Error ? error.stack : error}`,
    );
    assert.equal(error.code, code, error.message);
    if (typeof pattern === "string") {
      assert.ok(error.message.includes(pattern), `"${error.message}" lacks "${pattern}"`);
    } else if (pattern) assert.match(error.message, pattern);
    return error;
  }
  assert.fail(`expected a "${code}" refusal`);
}
