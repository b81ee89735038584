#!/bin/bash
# shellcheck source=SCRIPTDIR/../lib/common.sh
. "$(dirname "$0")/../lib/common.sh"
echo "$greeting" "$name" $1
