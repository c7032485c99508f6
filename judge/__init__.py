"""judge: grade programs the way Baekjoon Online Judge does, on your own machine."""

__version__ = "0.1.0"
