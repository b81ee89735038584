assert True
