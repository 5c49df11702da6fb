"""The background worker: ``loop`` drains the outbox on every pass and claims jobs and runs them,
``tasks`` names what runs each kind of job (and the periodic ones), ``sync`` is the periodic
refresh, ``cli`` is ``flask --app app worker``."""
