# Adds only the first two numbers.
read n
read a b rest
echo $((a + b))
