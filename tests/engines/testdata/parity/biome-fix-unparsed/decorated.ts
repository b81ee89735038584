function first() {
  return function () {};
}

export class Foo {
  method(@first() test: string) {
    return test;
  }
}
