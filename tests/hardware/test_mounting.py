import math
from pathlib import Path

import pytest

from hardware.mounting import (
    CAMERA_MODULE_3,
    CAMERA_MODULE_3_WIDE,
    card_pixels,
    coverage_svg,
    main,
    markdown,
    plan,
)

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_coverage_follows_the_field_of_view():
    width, depth = CAMERA_MODULE_3.coverage(1.0)
    assert width == pytest.approx(2 * math.tan(math.radians(33)))  # 1.30 m
    assert depth == pytest.approx(2 * math.tan(math.radians(20.5)))
    assert CAMERA_MODULE_3_WIDE.coverage(1.0)[0] == pytest.approx(2.47, abs=0.01)
    # the height found covers the area exactly along the tighter side
    h = CAMERA_MODULE_3.height_for(2.1, 0.9)
    assert CAMERA_MODULE_3.coverage(h)[0] == pytest.approx(2.1) and CAMERA_MODULE_3.coverage(h)[1] > 0.9
    with pytest.raises(ValueError, match="above 0"):
        CAMERA_MODULE_3.coverage(0)


def test_ten_seats_need_the_full_sensor_and_six_seats_the_binned_mode():
    ten = plan((2.4, 1.2))
    assert ten.area == pytest.approx((2.1, 0.9))
    assert ten.heights["Camera Module 3 Wide"] == pytest.approx(0.85, abs=0.01)  # within the usual 70-100 cm
    assert ten.heights["Camera Module 3"] == pytest.approx(1.62, abs=0.01)
    assert ten.card_px[1280] < 60 and ten.card_px[4608] > 150
    six = plan((1.6, 0.9))
    assert six.card_px[2304] == pytest.approx(card_pixels(1.3, 2304)) and six.card_px[2304] > 150
    with pytest.raises(ValueError, match="no room"):
        plan((0.3, 0.2))


def test_docs_show_the_computed_numbers_and_picture():
    page = (DOCS / "hardware.md").read_text(encoding="utf-8")
    assert markdown() in page, "docs/hardware.md is stale: paste python -m hardware.mounting --markdown"
    assert (DOCS / "camera-coverage.svg").read_text(encoding="utf-8") == coverage_svg(), (
        "docs/camera-coverage.svg is stale: run python -m hardware.mounting --svg docs/camera-coverage.svg"
    )


def test_command_line(capsys):
    assert main(["--table", "1.6x0.9"]) == 0
    out = capsys.readouterr().out
    assert "Camera Module 3: mount 1.00 m" in out and "2304 px wide: 156 px" in out
    with pytest.raises(SystemExit):
        main(["--table", "big"])
    assert "LENGTHxWIDTH" in capsys.readouterr().err
