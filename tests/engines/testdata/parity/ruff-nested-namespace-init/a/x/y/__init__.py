X = 1  # noqa: INP001
