import email
import os

import requests

import other

print(email, os, requests, other)
