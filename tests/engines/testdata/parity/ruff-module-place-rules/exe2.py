X = 1  # noqa: EXE002
