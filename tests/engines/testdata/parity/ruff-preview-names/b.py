import os

x = 1
print(x == None)
