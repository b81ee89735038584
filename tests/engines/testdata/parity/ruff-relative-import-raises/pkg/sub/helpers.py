class H(Exception):
    """Another."""
