"""The ground every feature stands on: the models and the database, the clock, the
configuration, encryption at rest, the words for codes, and small utilities. Nothing here
draws a page."""
