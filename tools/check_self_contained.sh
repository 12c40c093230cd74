#!/usr/bin/env bash
# Fails if a tracked file refers to a path outside the repository: the team's shelf beside it, or
# an absolute path of a development machine. A clone must build, test and run with nothing beside it.
set -euo pipefail
cd "$(dirname "$0")/.."
# The patterns are built from pieces so that this file does not match itself.
dots='\.\.'
patterns=(
  -e "${dots}/shared"
  -e '(^|[^A-Za-z0-9_.])/(work|home|root|mnt|Users)/'
)
if hits=$(git grep -nE "${patterns[@]}" -- .); then
  echo "check_self_contained: tracked files refer to paths outside the repository:" >&2
  echo "$hits" >&2
  exit 1
fi
echo "check_self_contained: no tracked file refers to a path outside the repository"
