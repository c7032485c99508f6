import sys

sys.stdout.write("500\n")  # never flushed: both sides wait
sys.stdin.readline()
