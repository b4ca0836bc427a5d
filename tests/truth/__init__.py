"""The channel held to the game: whole games played, their channels' final state read
line by line and every claim checked against the game replayed through the rules."""
