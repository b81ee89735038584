import os
assert os
