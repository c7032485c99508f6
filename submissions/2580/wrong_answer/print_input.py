# BOJ 2580 Sudoku -- wrong answer.
# Reads the board and prints it back unchanged (the solving step was never written), so the zeros of
# the blanks are still in the output. Only a test whose board has no blank at all would pass.
import sys

lines = sys.stdin.read().split("\n")
rows = [line.split() for line in lines if line.strip()]
for row in rows[:9]:
    print(" ".join(row))
