"""The database: the engine and tables, the stores of scans, games and taught decks, and migrations."""
