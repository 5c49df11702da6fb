"""The gateway layer: request/response shapes, signing, and the HTTP clients.

Nothing in this package imports Flask, so the client and the sandbox can share it.
"""
