"""The issued device tokens on both back ends (a SQLite file and a real PostgreSQL server): the bound per
client holds under concurrent issuance, says when the next token comes, and forgets clients after the
window."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from api.core import new_device_token, owner_of_token
from api.storage import DeviceStore, IssuanceLimit
from api.storage.engine import connect, database_url, migrate


@pytest.fixture()
def engine(db_url: str) -> Any:
    engine = connect(database_url(db_url))
    migrate(engine)
    yield engine
    engine.dispose()


def _issue(store: DeviceStore, client: str) -> str:
    try:
        store.issue(owner_of_token(new_device_token()), client)
    except IssuanceLimit:
        return "refused"
    return "issued"


def test_concurrent_issuance_never_takes_a_client_past_its_bound(engine: Any) -> None:
    store = DeviceStore(engine, max_per_client=3, window_s=3600)
    with ThreadPoolExecutor(10) as pool:
        answers = sorted(pool.map(lambda _: _issue(store, "203.0.113.7"), range(10)))
    assert answers == ["issued"] * 3 + ["refused"] * 7
    assert store.count() == 3
    assert _issue(store, "203.0.113.8") == "issued"  # another client has its own bound


def test_the_refusal_says_when_the_next_token_comes_and_the_window_frees_it(engine: Any) -> None:
    store = DeviceStore(engine, max_per_client=2, window_s=2)
    assert [_issue(store, "c"), _issue(store, "c")] == ["issued", "issued"]
    with pytest.raises(IssuanceLimit) as refused:
        store.issue(owner_of_token(new_device_token()), "c")
    assert 1 <= refused.value.retry_after_s <= 2
    time.sleep(2.2)
    assert _issue(store, "c") == "issued"


def test_only_issued_tokens_are_known_and_a_known_one_stays_known(engine: Any) -> None:
    store = DeviceStore(engine, max_per_client=5, window_s=60)
    token = new_device_token()
    assert not store.issued(owner_of_token(token))
    store.issue(owner_of_token(token), "c")
    fresh = DeviceStore(engine, max_per_client=5, window_s=60)  # another worker: read from the database
    assert fresh.issued(owner_of_token(token)) and store.issued(owner_of_token(token))
    assert not fresh.issued(owner_of_token(new_device_token()))
