from pkg._x import y
from pkgx._x import z

print(y, z)
