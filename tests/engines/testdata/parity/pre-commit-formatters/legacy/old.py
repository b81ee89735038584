def   kept( a,b ):
  return a+b
