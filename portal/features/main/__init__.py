"""The home page and helpers shared by every page's layout."""
