"""Handing a merchant's verification over to their phone: the single-use, short-lived link
a QR code or a text message carries, and what the computer's page reads of it."""
