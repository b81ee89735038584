int  adler( int a ){return a+1;}
