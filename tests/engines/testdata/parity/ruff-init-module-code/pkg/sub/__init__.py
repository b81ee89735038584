import os  # noqa: RUF067
VALUE = 1
# ruff: noqa: RUF067
