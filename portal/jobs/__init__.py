"""Background work on workers: jobs in the database, claimed under a lease.

``queue`` adds, claims, renews and ends jobs; ``handlers`` names what runs each kind; ``worker``
is the loop ``flask --app app worker`` runs (the outbox's sends included); ``cli`` the command.
"""
