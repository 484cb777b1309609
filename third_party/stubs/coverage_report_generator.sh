#!/bin/sh
# Coverage reports are not produced offline.
exit 0
