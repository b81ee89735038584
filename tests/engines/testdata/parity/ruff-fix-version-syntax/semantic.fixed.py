import sys


def f(a, a):
    return sys.argv
