export function f(x) {
  debugger;
  return x;
}
