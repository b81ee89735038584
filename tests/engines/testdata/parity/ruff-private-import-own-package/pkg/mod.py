import _thread
from other._priv import y
from pkg import _hidden
from pkg._private import x

print(_thread, x, y, _hidden)
