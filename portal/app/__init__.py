"""The portal put together: the app factory, its blueprints, extensions and commands."""
