package plain;

public final class Plain {
  private int count;

  public int increment() {
    return ++count;
  }
}
