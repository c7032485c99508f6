# Sums absolute values: right until a number is negative.
read n
read -a xs
s=0
for x in "${xs[@]}"; do s=$((s + ${x#-})); done
echo "$s"
