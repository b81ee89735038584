X = 1  # noqa: N999
