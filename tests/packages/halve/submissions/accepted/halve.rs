fn main() {
    let mut line = String::new();
    std::io::stdin().read_line(&mut line).unwrap();
    let n: f64 = line.trim().parse().unwrap();
    println!("{}", n / 2.0);
}
