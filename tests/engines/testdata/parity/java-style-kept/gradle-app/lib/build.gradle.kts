plugins {
    id("example.java-conventions")
}
