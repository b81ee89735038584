ROWS = [ {"name": "tea", "count": 2, "price": 3.5} ]
