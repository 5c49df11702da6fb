"""The partner's branding on what a sub-merchant sees: name, logo, accent colour, sender name."""
