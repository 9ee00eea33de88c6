"""What the routes depend on, handed to them by FastAPI's ``Depends``: the settings, the stores, the device
that sent a request (its token, which must be one the service issued), that device's taught deck, the
upload admission, the JSON requests' workers and the scan workers.

Each app holds one :class:`Services`, made by :func:`api.web.app.create_app` and closed at its shutdown;
:func:`services` is the one place a route's app is asked for it. A route names what it needs by type
(``store: ScanStoreDep``), so a test can give an app other parts with ``app.dependency_overrides``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Header, Request
from sqlalchemy import Engine

from api.core import DeviceTokenUnknown, owner_of
from api.storage import DeckStore, DeviceStore, GameStore, ScanStore, WriteCheck, connect, database_url
from api.web.admission import Admission, JsonWork
from api.web.scanning import ScanWorkers
from api.web.settings import Settings
from games import load_any_deck

__all__ = [
    "AdmissionDep",
    "Auth",
    "DeckStoreDep",
    "DeviceDep",
    "DeviceStoreDep",
    "GameStoreDep",
    "JsonWorkDep",
    "OptionalDeviceDep",
    "ScanStoreDep",
    "ScanWorkersDep",
    "Services",
    "SettingsDep",
    "TaughtDeckDep",
    "WriteCheckDep",
]

Auth = Annotated[
    str | None, Header(description="'Bearer <device token>' (POST /api/v1/devices makes a token)")
]


@dataclass(frozen=True)
class Services:
    """One app's parts: its settings, database stores, upload admission, JSON workers and scan workers."""

    settings: Settings
    engine: Engine
    scans: ScanStore
    games: GameStore
    decks: DeckStore
    devices: DeviceStore
    writable: WriteCheck
    admission: Admission
    json_work: JsonWork
    workers: ScanWorkers

    @classmethod
    def of(cls, settings: Settings) -> Services:
        """The parts for ``settings`` (nothing is opened yet: the database at start-up, threads on use)."""
        engine = connect(database_url(settings.database_url, settings.database_path))
        # One admission for every heavy upload (scans and decks), by the bytes each has sent.
        admission = Admission(
            settings.max_pending_scans,
            settings.max_pending_bytes,
            settings.max_client_pending_bytes,
            settings.max_client_uploads,
        )
        return cls(
            settings,
            engine,
            ScanStore(engine, settings.scan_ttl_s),
            GameStore(engine),
            DeckStore(engine),
            DeviceStore(engine, settings.max_devices_per_client, settings.device_window_s),
            WriteCheck(engine),
            admission,
            JsonWork(settings.json_workers, settings.max_pending_json, settings.max_client_json),
            ScanWorkers(settings.scan_workers),
        )

    def close(self) -> None:
        """Stop the scanner's threads and let the database connections go."""
        self.workers.close()
        self.engine.dispose()


def services(request: Request) -> Services:
    """The :class:`Services` of the app that received ``request``."""
    found: Services = request.app.state.services
    return found


ServicesDep = Annotated[Services, Depends(services)]


def _settings(s: ServicesDep) -> Settings:
    return s.settings


def _scans(s: ServicesDep) -> ScanStore:
    return s.scans


def _games(s: ServicesDep) -> GameStore:
    return s.games


def _decks(s: ServicesDep) -> DeckStore:
    return s.decks


def _devices(s: ServicesDep) -> DeviceStore:
    return s.devices


def _json_work(s: ServicesDep) -> JsonWork:
    return s.json_work


def _writable(s: ServicesDep) -> WriteCheck:
    return s.writable


def _admission(s: ServicesDep) -> Admission:
    return s.admission


def _workers(s: ServicesDep) -> ScanWorkers:
    return s.workers


SettingsDep = Annotated[Settings, Depends(_settings)]
ScanStoreDep = Annotated[ScanStore, Depends(_scans)]
GameStoreDep = Annotated[GameStore, Depends(_games)]
DeckStoreDep = Annotated[DeckStore, Depends(_decks)]
DeviceStoreDep = Annotated[DeviceStore, Depends(_devices)]
JsonWorkDep = Annotated[JsonWork, Depends(_json_work)]
WriteCheckDep = Annotated[WriteCheck, Depends(_writable)]
AdmissionDep = Annotated[Admission, Depends(_admission)]
ScanWorkersDep = Annotated[ScanWorkers, Depends(_workers)]


def device(devices: DeviceStoreDep, authorization: Auth = None) -> str:
    """The owner key of the device that sent the request: 401 ``device_token_required`` without a
    well-formed token, 401 ``device_token_unknown`` for one this service never issued."""
    owner = owner_of(authorization)
    if not devices.issued(owner):
        raise DeviceTokenUnknown(
            "this device token was not issued by this server (or its database was replaced): "
            "POST /api/v1/devices for a new one"
        )
    return owner


DeviceDep = Annotated[str, Depends(device)]


def optional_device(devices: DeviceStoreDep, authorization: Auth = None) -> str | None:
    """The owner key of the device that sent the request, or ``None`` when it sent no token (a token sent
    is checked as :func:`device` checks it)."""
    return device(devices, authorization) if authorization else None


OptionalDeviceDep = Annotated[str | None, Depends(optional_device)]


def taught_deck(decks: DeckStoreDep, owner: OptionalDeviceDep) -> list[Any]:
    """The taught decks of the device that sent a scan (one per game; the scan uses the one of the game it
    reads): none without a token or a deck taught."""
    if owner is None:
        return []
    kept = decks.kept(owner)
    return [load_any_deck(d.deck, name=f"the device's taught {d.game} deck") for d in kept]


TaughtDeckDep = Annotated[list[Any], Depends(taught_deck)]
