"""The admins' pages of the webhooks out to partners' software: endpoints, secrets, delivery
logs (the gateway's webhooks coming in are ``portal.features.webhooks``)."""
