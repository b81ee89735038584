class E(Exception):
    """An error."""
