x = 1  # noqa: INP001
