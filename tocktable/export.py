"""Exports of a session: hand histories (PHH) and the ledger of who won what (CSV and JSON).

Everything comes from replaying the store, so an export never holds more than the game knew:
hole cards only where they were shown at the showdown.

Five-card draw: PHH has one single-draw variant, ``N2L1D`` (no-limit deuce-to-seven). Petite
Misère hands played that way (no jokers, no wild rank, antes only) are written to the PHH file
with unknown cards as ``??``; every other draw hand (high draw, jokers, wild cards, ace-to-five,
fixed-limit, an opening bet) has no PHH variant and is left out of it. The ledger JSON holds
every hand of every variant: its ``game`` says how it was played, and each result lists the
draws (cards exchanged per player) and the hands shown, jokers as ``"Jk"``.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from table.engine.draw import DrawHand
from table.history import to_phh, to_phhs
from table.session import HandRecord, Session
from table.session_draw import VARIANT_NAMES, draw_phh
from tocktable.replay import replay_session
from tocktable.store import SessionInfo, Store, StoreError

FORMATS = ("phh", "csv", "json")


@dataclass(frozen=True)
class Payment:
    """One transfer that settles the night: ``payer`` gives ``amount`` chips' worth to ``payee``."""

    payer: str
    payee: str
    amount: int


def find_session(store: Store, wanted: int | None) -> SessionInfo:
    """The session ``wanted``, or the newest one."""
    sessions = store.sessions()
    if not sessions:
        raise StoreError(f"{store.path} holds no session yet: play a hand first")
    if wanted is None:
        return sessions[-1]
    for info in sessions:
        if info.id == wanted:
            return info
    raise StoreError(f"no session {wanted} in {store.path}: sessions are {', '.join(str(s.id) for s in sessions)}")


def phh_text(session: Session) -> str:
    """Every finished hand as one PHH collection (``.phhs``: a TOML table per hand)."""
    texts = []
    for number, hand in enumerate(session.hands, start=1):
        if hand.is_complete:
            names = {seat: _name(session, number, seat) for seat in hand.in_hand}
            if isinstance(hand, DrawHand):
                text = draw_phh(hand, names=names, number=number)
                if text is not None:  # no PHH variant for this draw game: it is in the ledger JSON
                    texts.append(text)
            else:
                texts.append(to_phh(hand, names=names, number=number))
    return to_phhs(texts)


def _name(session: Session, number: int, seat: int) -> str:
    record = next((r for r in session.records if r.number == number), None)
    if record is not None and seat in record.names:
        return record.names[seat]
    player = session.players.get(seat)
    return player.name if player is not None else f"Seat {seat + 1}"


def payments(ledger: list[dict[str, Any]]) -> list[Payment]:
    """Fewest simple transfers that settle the ledger: the biggest loser pays the biggest winner first."""
    debts = sorted(([line["name"], -line["net"]] for line in ledger if line["net"] < 0), key=lambda d: -d[1])
    credits = sorted(([line["name"], line["net"]] for line in ledger if line["net"] > 0), key=lambda c: -c[1])
    out: list[Payment] = []
    i = j = 0
    while i < len(debts) and j < len(credits):
        amount = min(debts[i][1], credits[j][1])
        out.append(Payment(debts[i][0], credits[j][0], amount))
        debts[i][1] -= amount
        credits[j][1] -= amount
        i += debts[i][1] == 0
        j += credits[j][1] == 0
    return out


def finished_records(session: Session) -> list[HandRecord]:
    """Every settled hand's results, the last one included before the next hand closes it
    (say the final hand of a tournament, never confirmed)."""
    last = session.last_record
    if last is not None and (not session.records or last.number != session.records[-1].number):
        return [*session.records, last]
    return list(session.records)


def closed_ledger(session: Session) -> list[dict[str, Any]]:
    """Bought in and cashed out per name as of the last settled hand: the chips of a hand still
    being played (blinds already posted) are not anybody's yet, so the nets sum to zero."""
    settled = session.hand is not None and session.hand.is_complete
    lines: dict[str, list[int]] = {}
    for line in session.departed:
        lines.setdefault(line.name, [0, 0])
        lines[line.name][0] += line.bought_in
        lines[line.name][1] += line.cashed_out
    for _, player in sorted(session.players.items()):
        lines.setdefault(player.name, [0, 0])
        lines[player.name][0] += player.bought_in
        lines[player.name][1] += session.stack(player.seat) if settled else player.stack
    return [{"name": name, "bought_in": bought, "cashed_out": out, "net": out - bought}
            for name, (bought, out) in lines.items()]  # fmt: skip


def ledger_data(session: Session, info: SessionInfo) -> dict[str, Any]:
    """The ledger, the payments that settle it and every finished hand's results."""
    ledger = closed_ledger(session)
    records = finished_records(session)
    settings = session.settings
    game: dict[str, Any] = {"variant": settings.variant, "name": VARIANT_NAMES[settings.variant],
                            "betting": settings.betting}  # fmt: skip
    if settings.draw is not None:
        game["draw"] = settings.draw.to_dict()
        game["phh"] = "N2L1D hands only (no-limit deuce-to-seven, no jokers or wild rank, antes only)"
    return {
        "session": info.id,
        "started": datetime.fromtimestamp(info.created_at, UTC).isoformat(timespec="seconds"),
        "game": game,
        "hands": len(records),
        "ledger": ledger,
        "payments": [p.__dict__ for p in payments(ledger)],
        "results": [record.to_dict() for record in records],
    }


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet may take as the start of a formula in a text cell."""


def csv_cell(value: Any) -> Any:
    """``value`` as a CSV cell a spreadsheet shows as text, never evaluates: text that starts
    like a formula (``=``, ``+``, ``-``, ``@``, tab, carriage return) gets a leading ``'``, which
    spreadsheets take as "this is text". Numbers stay numbers (a net of -40 is a number).

    >>> csv_cell("=1+2"), csv_cell("Ann"), csv_cell(-40)
    ("'=1+2", 'Ann', -40)
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def ledger_csv(data: dict[str, Any]) -> str:
    """The ledger as CSV (name, bought_in, cashed_out, net; rows end in CRLF); names that look
    like formulas are kept as text (:func:`csv_cell`)."""
    out = io.StringIO()
    # CRLF between rows (RFC 4180): a field holding a CR or an LF is then quoted, never split.
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["name", "bought_in", "cashed_out", "net"])
    for line in data["ledger"]:
        writer.writerow([csv_cell(line[key]) for key in ("name", "bought_in", "cashed_out", "net")])
    return out.getvalue()


def export_session(
    store: Store, *, session_id: int | None, out_dir: Path, formats: tuple[str, ...] = FORMATS
) -> list[Path]:
    """Write the chosen formats of a session into ``out_dir``; the files written."""
    info = find_session(store, session_id)
    game, _ = replay_session(store, info.id)
    session = game.session
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create {out_dir}: {exc}") from None
    written = []
    data = ledger_data(session, info)
    contents: dict[str, tuple[str, Callable[[], str]]] = {
        "phh": (f"session-{info.id}.phhs", lambda: phh_text(session)),
        "csv": (f"session-{info.id}-ledger.csv", lambda: ledger_csv(data)),
        "json": (f"session-{info.id}-ledger.json", lambda: json.dumps(data, indent=2) + "\n"),
    }
    for fmt in formats:
        name, make = contents[fmt]
        path = out_dir / name
        try:
            path.write_text(make(), encoding="utf-8")
        except OSError as exc:
            raise StoreError(f"cannot write {path}: {exc}") from None
        written.append(path)
    return written
