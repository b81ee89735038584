import _pk._sub

print(_pk._sub)
