"""Messages to people (email after the commit, exactly once, each person's choices): the top layer."""
