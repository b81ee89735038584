package example;

public final class Counter {
  private int count;

  public int increment() {
    return ++count;
  }
}
