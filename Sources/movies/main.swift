import MoviesCLI
