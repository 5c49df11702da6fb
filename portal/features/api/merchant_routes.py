"""The API's merchants: create (and send step 1), read, list with the list's filters."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from portal.core.clients import current_onboarding_client
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.domain.api.scopes import Scope
from portal.domain.onboarding.create import CREATE, start_merchant
from portal.domain.onboarding.drafts import get_merchant
from portal.domain.onboarding.merchant_filters import matching
from portal.domain.onboarding.service import send_step
from portal.features.api.operations import Answer, Call, operation
from portal.features.api.problems import Problem
from portal.features.api.representations import cursor_after, merchant_out, read_cursor
from portal.features.api.schemas import MerchantList, MerchantOut, MerchantQuery
from portal.gateway.onboarding.requests import CreateOnboardingRequest


def found_merchant(merchant_id: int) -> Merchant:
    """The merchant, or a 404 problem."""
    merchant = get_merchant(merchant_id)
    if merchant is None:
        raise Problem(404, f"There is no merchant {merchant_id}.")
    return merchant


@operation("/merchants", "GET", scope=Scope.READ_MERCHANTS, summary="List merchants",
           answer=MerchantList, query=MerchantQuery)
def list_merchants(call: Call) -> Answer:
    """Merchants by id, a page at a time, narrowed as the merchants page narrows them."""
    query: MerchantQuery = call.query
    after = read_cursor(query.cursor)
    rows = list(db.session.scalars(
        select(Merchant).where(*matching(query.q, query.status), Merchant.id > after)
        .order_by(Merchant.id).limit(query.limit + 1)))
    more = len(rows) > query.limit
    rows = rows[:query.limit]
    return Answer(MerchantList(data=[merchant_out(m) for m in rows],
                               nextCursor=cursor_after(rows[-1].id) if more else None))


@operation("/merchants/<int:merchant_id>", "GET", scope=Scope.READ_MERCHANTS,
           summary="Read a merchant: its status and each product's state", answer=MerchantOut)
def read_merchant(call: Call, merchant_id: int) -> Answer:
    """One merchant."""
    return Answer(merchant_out(found_merchant(merchant_id)))


@operation("/merchants", "POST", scope=Scope.WRITE_MERCHANTS, status=201,
           summary="Create a merchant and send its step 1 to the gateway",
           answer=MerchantOut, body=CreateOnboardingRequest)
def create_merchant(call: Call) -> Answer:
    """Store the merchant and send the create, as the wizard's step 1 does; 202 when the
    gateway was away and the create is queued."""
    data: dict[str, Any] = call.body
    merchant, errors = start_merchant(data, sending=True, actor=call.actor)
    if merchant is None:
        raise Problem(422, "The merchant could not be created.", errors)
    result = send_step(current_onboarding_client(), merchant, CREATE, data, actor=call.actor)
    location = f"/api/v1/merchants/{merchant.id}"
    if result.ok:
        return Answer(merchant_out(merchant), 201, location)
    if result.queued_until or result.outcome_unknown or result.unavailable:
        return Answer(merchant_out(merchant), 202, location)
    raise Problem(422, f"The gateway refused the create (merchant {merchant.id} is kept as a "
                       f"draft): {result.message}", result.errors)
