"""Clubs: the records a player belongs to, with a secretary who keeps the club's players."""
