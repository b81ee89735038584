def f():
    breakpoint()
