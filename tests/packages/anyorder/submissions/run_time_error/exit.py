raise SystemExit(1)
