l = 1


def add(x, acc=[]):
    acc.append(x)
    return acc
