# Two processes spinning: the parent forks, neither waits. CPU time of the tree grows twice as fast as wall time.
import os

os.fork()
while True:
    pass
