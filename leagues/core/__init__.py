"""The leagues' pure cores: fixtures, team matches and the league table on plain values (no Django)."""
