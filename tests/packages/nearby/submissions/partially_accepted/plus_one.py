print(2 * int(input()) + 1)  # one off on every test: 9 of 10 points each
