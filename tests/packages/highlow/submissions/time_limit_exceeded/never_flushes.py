import sys

sys.stdout.write("500")  # no newline, never flushed: each side waits for the other
sys.stdin.readline()
