"""The table's parts: the players, your hand, the decision with its countdown, the action bar."""
