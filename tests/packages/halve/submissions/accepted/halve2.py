#!/usr/bin/env python2
print int(raw_input()) / 2.0
