#!/usr/bin/env python
X = 1
