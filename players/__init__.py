"""The players registry: the people who play, their club and federation ids, their current rating."""
