"""The background worker: ``loop`` claims jobs and runs them (the outbox's sends too),
``handlers`` names what runs each kind of job, ``cli`` is ``flask --app app worker``."""
