import sys
import os

print(sys, os)
