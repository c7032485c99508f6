# Reads the count, then hands the numbers to the program beside it (found through $0: the working folder is
# a writable scratch folder, not the program folder).
read n
read line
"$(dirname "$0")/add_up" $line
