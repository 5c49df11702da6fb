"""Background work as jobs in the database, claimed by workers under a lease (``queue``).

The workers themselves (their loop, what runs each kind of job, the command) are
``portal.app.worker``; features add jobs here in their own transactions.
"""
