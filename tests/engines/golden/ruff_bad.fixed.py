import sys
x = 1
if x == None:
    print( "é", sys.argv )
y = "plain"
