import os
import sys


def here():
    print(sys.argv[0])
