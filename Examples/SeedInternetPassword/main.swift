print("seed")
