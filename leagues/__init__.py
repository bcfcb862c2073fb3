"""Team matches, leagues, seasons, result cards and the team cup (issue 26): above tournaments."""
