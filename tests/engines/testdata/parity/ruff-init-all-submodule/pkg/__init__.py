__all__ = ["helpers"]
