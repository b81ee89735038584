import os

import pkg.later
import requests
import single.sub

import pkg
import single

print(os, pkg, requests, single)
