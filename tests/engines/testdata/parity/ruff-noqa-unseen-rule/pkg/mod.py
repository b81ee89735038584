def patch():
    from pkg import mod  # noqa: PLW0406

    return mod
