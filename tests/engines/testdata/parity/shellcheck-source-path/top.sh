#!/bin/bash
. lib/common.sh
source ./lib/common.sh
echo "$greeting"
