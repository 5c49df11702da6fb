"""Four-eyes approvals: a large refund, a key import or a key replacement one admin asks for is
stored pending with its reason and carried out only once another admin approves it.

The blueprint is ``portal.features.approvals.routes.bp`` (the navigation imports ``queries``
from here, so this package imports nothing itself)."""
