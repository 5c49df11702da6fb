"""Real-browser journeys through the portal and the sandbox (headless Chromium)."""
