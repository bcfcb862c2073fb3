# Arbitration log entries are append-only; they get a read-only admin with the games issue.
