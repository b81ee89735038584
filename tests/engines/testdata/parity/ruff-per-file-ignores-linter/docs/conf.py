import datetime

x = datetime.datetime.now()
# TODO fix
print(x)
