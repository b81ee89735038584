const x = { a: 1, b: [1, 2, 3] };
export function f(y: number) {
  return y + x.a;
}
