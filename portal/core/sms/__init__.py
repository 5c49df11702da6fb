"""Text messages: one sender interface, a local sink (files) and a generic HTTP provider."""
