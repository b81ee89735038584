def f():
    unused = 1
