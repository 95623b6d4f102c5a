#!/bin/sh
echo "credential helper: you are not logged in" >&2
exit 1
