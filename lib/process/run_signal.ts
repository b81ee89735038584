/**
 * The cancel signal of the run an engine process belongs to. A run (`runLint`, `runFmt`) carries its request's
 * signal through every asynchronous call it makes (`AsyncLocalStorage`), down to the engine processes it starts
 * (lib/engines/host.ts): when the run is cancelled (an MCP client cancels its call, a `poly daemon` client goes away)
 * they are stopped at once rather than left to finish their batch.
 *
 * @module
 */
import { AsyncLocalStorage } from "node:async_hooks";

const scope = new AsyncLocalStorage<AbortSignal>();

/** What a file the run was cancelled before says. */
export const CANCELLED = "cancelled before this file was processed";

/** Runs `fn` with `signal` as the run's cancel signal (no signal: as it is). */
export function withRunSignal<T>(signal: AbortSignal | undefined, fn: () => Promise<T>): Promise<T> {
  return signal ? scope.run(signal, fn) : fn();
}

/** The cancel signal of the run this call belongs to, if it has one. */
export function runSignal(): AbortSignal | undefined {
  return scope.getStore();
}

/** Whether the run this call belongs to has been cancelled. */
export function runCancelled(): boolean {
  return scope.getStore()?.aborted === true;
}
