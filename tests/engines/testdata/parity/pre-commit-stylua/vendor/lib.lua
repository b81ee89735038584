local x = "vendored"
return x
