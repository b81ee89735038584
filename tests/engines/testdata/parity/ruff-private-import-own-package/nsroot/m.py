from nsroot._p import q

print(q)
