import os

import pytest

from tests.helpers import h

print(os, pytest, h)
