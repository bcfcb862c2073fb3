# The arbitration log, rulings and clocks live here (the games and arbitration issue).
