X = 1
#!not first
