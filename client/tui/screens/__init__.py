"""The app's screens: the menu, the forms that start a game, the lobby, the table, the
results, the dialogs a decision opens, and the rules card."""
