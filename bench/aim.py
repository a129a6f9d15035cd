"""The set-up page's aim advice on the demo's table, for a camera moved about, and its cost.

    TOCKTABLE_FONTS=system python -m bench.aim

Draws the demo's six-seat table (seed 11) with one card face up in front of every seat and three
in the middle, as the perfect camera's picture, moves the synthetic camera (:mod:`hardware.camera_rig`)
up, down, tilted and blurred, and prints for each position the advice :class:`tocktable.aim.AimCheck`
gives (cards found by the reader's card finder) and the median milliseconds it took.
"""

from __future__ import annotations

import statistics
import time

from hardware.aim import camera_height
from hardware.camera_rig import CameraRig
from hardware.table_model import TableModel
from tocktable.aim import AimCheck, card_finder
from tocktable.camera import perfect_picture

POSITIONS = [{}, {"lift": 0.2}, {"lift": 0.4}, {"lift": -0.15}, {"lift": -0.3}, {"tilt": 5.0}, {"tilt": 10.0},
             {"tilt": -10.0}, {"tilt": 15.0}, {"tilt": -15.0}, {"blur": 1.5},
             {"blur": 3.0}]  # fmt: skip


def main() -> int:
    model = TableModel(6, seed=11)
    for seat, card in enumerate(["2c", "5d", "8h", "Js", "Kc", "4s"]):
        model.deal(card, zone=seat, face_up=True)
    model.deal_board(["Ah", "7s", "3d"])
    picture = perfect_picture(model)
    rig = CameraRig(camera_height(model.card_height * model.size[1], model.size[0]))
    find = card_finder()
    print(f"demo camera mounted {rig.height * 100:.0f} cm above the felt; picture {model.size[0]}x{model.size[1]}")
    for position in POSITIONS:
        rig.set(lift=0.0, tilt=0.0, blur=0.0)
        rig.set(**position)
        times = []
        result = {}
        for frame in range(1, 6):
            check = AimCheck(lambda f=frame: (f, rig.view(picture())), find=find, rig=rig)
            start = time.perf_counter()
            result = check.advice()
            times.append((time.perf_counter() - start) * 1000)
        moved = ", ".join(f"{k} {v:g}" for k, v in position.items()) or "as mounted"
        print(f"\n{moved}: {statistics.median(times):.0f} ms")
        for item in result["advice"]:
            print(f"  {'ok ' if item['ok'] else 'FIX'} {item['text']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
