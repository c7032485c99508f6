import sys

sys.exit(152)  # 128 + SIGXCPU: what a sandbox wrapper reports for a program killed by SIGXCPU
