"""``tocktable enroll``: the command line of deck enrollment (:mod:`vision.enroll`), here because
it joins the reader with the application's data directory and hardware's cameras, which vision
does not import.

With the camera (the guide shows which card to present next, confirms each, allows redoing one,
shows the progress, and picks up where it stopped when run again), or from a folder of photos
named after their cards::

    tocktable enroll                         # the webcam 0; the profile goes to the data directory
    tocktable enroll --photos my-deck/
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hardware.errors import FrameSourceError
from hardware.sources import source_from_spec
from tocktable.config import default_data_dir
from vision.deck_profile import PROFILE_NAME, ProfileError
from vision.enroll import EnrollError, Guide, enroll_folder
from vision.errors import VisionError
from vision.reader import MODELS_DIR, CardReader


def main(argv: Sequence[str] | None = None, *, prog: str = "tocktable enroll") -> int:
    """Run the enrollment command line; returns the exit code (0 done, 1 stopped early, 2 error)."""
    parser = argparse.ArgumentParser(prog=prog, description="Teach the card reader your own deck, one card at a "
                                     "time under the camera or from a folder of photos (one per card).")  # fmt: skip
    parser.add_argument("--photos", type=Path, help="a folder of photos named like Ah.jpg (no camera, no questions)")
    parser.add_argument("--pattern", default="*", help="which photos of the folder (default: all), e.g. '*_1.jpg'")
    parser.add_argument("--camera", default="0", help="'picamera', a webcam number (default 0), a URL or a folder")
    parser.add_argument("--data", type=Path, help="data directory (default: $TOCKTABLE_DATA, ~/.local/share/tocktable)")
    parser.add_argument("-o", "--out", type=Path, help=f"profile file (default: DATA/{PROFILE_NAME})")
    parser.add_argument("--models", type=Path, help="card reader models (default: the shipped ones)")
    parser.add_argument("--marks", action="store_true", help="also enroll one back per Tock mark (another mark design)")
    parser.add_argument("--restart", action="store_true", help="forget the progress of a stopped enrollment")
    parser.add_argument("--cards", help="enroll only these cards again (e.g. 'As 7h'); the profile keeps the others")
    parser.add_argument("--name", default="", help="a name for the deck")
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    path = args.out or (args.data or default_data_dir()) / PROFILE_NAME
    try:
        reader = CardReader(args.models or MODELS_DIR)
    except VisionError as error:
        sys.stderr.write(f"{prog}: {error}\n")
        return 2
    if args.photos is not None:
        return _from_folder(reader, args, path, prog)
    try:
        source = source_from_spec(args.camera)
    except FrameSourceError as error:
        sys.stderr.write(f"{prog}: {error}\n")
        return 2
    cards = args.cards.replace(",", " ").split() if args.cards else None
    try:
        guide = Guide(reader, source, path, marks=args.marks, restart=args.restart, cards=cards, name=args.name)
    except EnrollError as error:
        sys.stderr.write(f"{prog}: {error}\n")
        return 2
    try:
        with source:
            profile = guide.run()
    except ProfileError as error:  # e.g. an unwritable --out
        sys.stderr.write(f"{prog}: {error}\n")
        return 2
    return 0 if profile is not None else 1


def _from_folder(reader: Any, args: argparse.Namespace, path: Path, prog: str) -> int:
    def progress(done: int, total: int) -> None:
        sys.stderr.write(f"\rreading photos {done}/{total}")
        if done == total:
            sys.stderr.write("\n")

    try:
        profile, report = enroll_folder(reader, args.photos, pattern=args.pattern, name=args.name, progress=progress)
    except EnrollError as error:
        sys.stderr.write(f"{prog}: {error}\n")
        return 2
    try:
        profile.save(path)
    except ProfileError as error:
        sys.stderr.write(f"{prog}: {error}\n")
        return 2
    photos = sum(report.enrolled.values())
    print(f"Enrolled {len(report.enrolled)} cards from {photos} photos; saved to {path}.")
    for line in report.skipped:
        print(f"  skipped {line}")
    for line in report.disagreements:
        print(f"  check {line}")
    if report.missing:
        print(f"  not enrolled: {' '.join(report.missing)}")
        for card in report.missing:
            for reason in report.reasons.get(card, ["no photo named after it"]):
                print(f"    {card}: {reason}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
