"""What the folder's tests share, for them and other folders' to
import (a test imports no conftest and no other test module)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import requests
from bs4 import BeautifulSoup

from portal.core.clock import Clock
from portal.gateway.payments.client import PaymentsClient, verify_callback_token
from portal.gateway.payments.jws import load_private_key, sign_claims, sign_digest_token
from portal.gateway.payments.operations import INITIATE_PATH
from portal.gateway.retry import RetryPolicy
from portal.gateway.transport import Timeouts, json_bytes
from tests.support.keys import KeyPair, new_key_pair
from tests.support.sandbox import RunningSandbox, serve_sandbox

MID = "MID0000001"


KID = "kid-merchant-1"


OTHER_MID = "MID0000002"


OTHER_KID = "kid-merchant-2"


#: A portfolio: the parent MID's key signs for MID and SUB_MID, not for OTHER_MID.
PARENT_MID = "MIDPARENT01"


PARENT_KID = "kid-parent-1"


SUB_MID = "MIDSUB00001"


CALLBACK_URL = "http://127.0.0.1:9/shop/payment-return"


HOLD_HOURS = 24.0


@pytest.fixture(scope="session")
def merchant_keys() -> KeyPair:
    """MID's signing key, registered under KID."""
    return new_key_pair()


@pytest.fixture(scope="session")
def other_merchant_keys() -> KeyPair:
    """OTHER_MID's signing key, registered under OTHER_KID."""
    return new_key_pair()


@pytest.fixture(scope="session")
def parent_keys() -> KeyPair:
    """PARENT_MID's portfolio key, registered under PARENT_KID."""
    return new_key_pair()


@pytest.fixture(scope="session")
def stranger_keys() -> KeyPair:
    """A key nobody registered."""
    return new_key_pair()


@pytest.fixture(scope="session")
def gateway_keys() -> KeyPair:
    """The sandbox gateway's own key pair."""
    return new_key_pair()


@pytest.fixture(scope="session")
def served_payments(merchant_keys: KeyPair, other_merchant_keys: KeyPair, parent_keys: KeyPair,
                   gateway_keys: KeyPair) -> Iterator[RunningSandbox]:
    """The sandbox with two merchants and a portfolio, served on a loopback port once per run."""
    config = {
        "merchants": [
            {"mid": MID, "keys": [{"kid": KID, "publicKeyPem": merchant_keys.public_pem}]},
            {"mid": OTHER_MID,
             "keys": [{"kid": OTHER_KID, "publicKeyPem": other_merchant_keys.public_pem}]},
            {"mid": PARENT_MID, "subMerchants": [MID, SUB_MID],
             "keys": [{"kid": PARENT_KID, "publicKeyPem": parent_keys.public_pem}]},
        ],
        "gatewayPrivateKeyPem": gateway_keys.private_pem,
        "holdExpiryHours": HOLD_HOURS,
    }
    with serve_sandbox(config) as running:
        yield running


@pytest.fixture
def sandbox(served_payments: RunningSandbox) -> RunningSandbox:
    """The served sandbox with every payment forgotten and the clock at real time."""
    return served_payments.reset()


@pytest.fixture
def clock(sandbox: RunningSandbox) -> Clock:
    """The sandbox's controllable clock; clients sign with it too."""
    return sandbox.clock


@pytest.fixture
def http() -> Iterator[requests.Session]:
    """A session that talks straight to loopback (no proxy from the environment)."""
    session = requests.Session()
    session.trust_env = False
    yield session
    session.close()


@pytest.fixture
def make_client(sandbox: RunningSandbox, merchant_keys: KeyPair, gateway_keys: KeyPair,
                http: requests.Session) -> Callable[..., PaymentsClient]:
    """Build a PaymentsClient for MID (or another merchant) on the sandbox's clock."""

    def make(*, encrypt: bool = False, mid: str = MID, kid: str = KID,
             private_pem: str | None = None, base_url: str | None = None,
             now_ms: Callable[[], int] | None = None,
             parent_mid: str | None = None) -> PaymentsClient:
        return PaymentsClient(
            base_url or sandbox.url, merchant_id=mid, kid=kid,
            private_key_pem=private_pem or merchant_keys.private_pem,
            gateway_public_key_pem=gateway_keys.public_pem,
            gateway_kid=sandbox.payments.gateway_key.kid, encrypt=encrypt, parent_mid=parent_mid,
            timeouts=Timeouts(connect=1.0, read=5.0), retry=RetryPolicy(attempts=1),
            session=http, now_ms=now_ms or sandbox.clock.now_ms,
        )

    return make


@pytest.fixture
def client(make_client: Callable[..., PaymentsClient]) -> PaymentsClient:
    """MID's client, JSON bodies."""
    return make_client()


def initiate_body(**changes: Any) -> dict[str, Any]:
    """A valid initiate body; ``changes`` replace top-level fields."""
    body: dict[str, Any] = {
        "merchantTxnId": "ORDER12345",
        "merchantUniqueId": "UNIQUE0000000001",
        "captureTxn": False,
        "paymentData": {
            "totalAmount": "100.00",
            "txnCurrency": "USD",
            "billingData": {"firstName": "Asha", "emailId": "asha@example.com",
                            "addressCountry": "IND"},
        },
        "riskData": {
            "customerData": {"merchantAssignedCustomerId": "C1", "emailId": "asha@example.com"},
            "shippingData": {"addressCountry": "USA", "emailId": "ship@example.com"},
            "orderData": [{"itemId": "SKU1", "itemName": "Room", "itemQuantity": 2,
                           "itemPrice": "50.00", "itemCategory": "TRAVEL"}],
        },
        "merchantCallbackURL": CALLBACK_URL,
    }
    body.update(changes)
    return body


@dataclass(frozen=True)
class Signer:
    """Sends hand-built signed requests, to reach the sandbox with what the client refuses."""

    url: str
    session: requests.Session
    private_pem: str
    now_ms: Callable[[], int]

    def token(self, data: bytes, *, kid: str = KID, mid: str = MID, encrypted: bool = False,
              now_ms: int | None = None, private_pem: str | None = None) -> str:
        """A token built like our client builds it."""
        return sign_digest_token(data, load_private_key(private_pem or self.private_pem),
                                 kid=kid, merchant_id=mid, encrypted=encrypted,
                                 now_ms=self.now_ms() if now_ms is None else now_ms)

    def claims_token(self, claims: dict[str, Any], header: dict[str, Any]) -> str:
        """A token with a hand-made header and payload, signed with MID's key."""
        return sign_claims(claims, load_private_key(self.private_pem), header)

    def post(self, body: Any = None, *, path: str = INITIATE_PATH, raw: bytes | None = None,
             token: str | None = None, headers: dict[str, str] | None = None,
             content_type: str = "application/json") -> requests.Response:
        """POST ``body`` (JSON) or ``raw`` bytes, signed unless ``token`` or headers say else."""
        data = raw if raw is not None else json_bytes(body)
        sent = {"Content-Type": content_type, "x-gl-merchantid": MID, "x-gl-kid": KID,
                "x-gl-token-external": token if token is not None else self.token(data)}
        sent.update(headers or {})
        return self.session.post(self.url + path, data=data, headers=sent, timeout=5)


@pytest.fixture
def signer(sandbox: RunningSandbox, http: requests.Session, merchant_keys: KeyPair) -> Signer:
    """A hand signer for MID against the sandbox."""
    return Signer(sandbox.url, http, merchant_keys.private_pem, sandbox.clock.now_ms)


@dataclass(frozen=True)
class Returned:
    """Where the hosted page sends the browser back, and with what token."""

    status_code: int
    action: str
    token: str
    page: BeautifulSoup


def open_page(http: requests.Session, redirect_url: str) -> BeautifulSoup:
    """GET the hosted page and parse it."""
    response = http.get(redirect_url, timeout=5)
    assert response.status_code == 200, response.text
    return BeautifulSoup(response.text, "html.parser")


def submit(http: requests.Session, base_url: str, form: Any,
           values: dict[str, str]) -> requests.Response:
    """Submit a parsed form like a browser: its hidden fields plus ``values``."""
    data = {field["name"]: field.get("value", "")
            for field in form.find_all("input") if field.get("name")}
    data.update(values)
    return http.post(requests.compat.urljoin(base_url, form["action"]), data=data, timeout=5)


def returned(response: requests.Response) -> Returned:
    """Read the auto-submitting return form of the page after payment."""
    page = BeautifulSoup(response.text, "html.parser")
    form = page.find("form", id="return-form")
    assert form is not None, response.text
    return Returned(response.status_code, form["action"],
                    form.find("input", attrs={"name": "x-gl-token"})["value"], page)


def pay_by_card(http: requests.Session, redirect_url: str, number: str,
                expiry: str = "12/39", cvv: str = "123",
                name: str = "Asha Rao") -> requests.Response:
    """Open the hosted page and pay with a card; return the answer to the form POST."""
    page = open_page(http, redirect_url)
    form = page.find("input", attrs={"name": "number"}).find_parent("form")
    return submit(http, redirect_url, form,
                  {"number": number, "expiry": expiry, "cvv": cvv, "name": name})


def claims_of(token: str, gateway_public_pem: str, now_ms: int) -> dict[str, Any]:
    """The claims of a callback token the client verified, as the token carried them."""
    return verify_callback_token(token, gateway_public_pem, now_ms).model_dump(
        by_alias=True, exclude_none=True)
