package example;

import java.util.List;

public final class Greeter {
  private final List<String> names;

  public Greeter(List<String> names) {
    this.names = names;
  }

  public String greet() {
    return names.isEmpty() ? "Hello, nobody." : "Hello, " + String.join(", ", names) + ".";
  }
}
