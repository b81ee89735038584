function old(a, b) {
  return a + b;
}
