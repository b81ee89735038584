#!/bin/bash
var= value
if true; then :
elif [ -x /usr/bin/vim; then :
fi
