from pkg._private import x

print(x)
