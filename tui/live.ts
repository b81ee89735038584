/**
 * What only the live dashboard needs — Ink, React and the app — loaded by
 * `run.tsx` once it draws (a lazy `import()`), so `poly dash --once`
 * and a missing terminal never load them.
 *
 * @module
 */
export { render } from "ink";
export { Dashboard } from "./app.tsx";
