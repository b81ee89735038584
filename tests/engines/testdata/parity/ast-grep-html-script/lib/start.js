export function start() {
  return "started";
}
