import tomllib

import pytest

from hardware.errors import PinMapError
from hardware.pins import ConsoleButton
from table.errors import TocktableError
from tocktable.config import EXAMPLE, BlindLevel, ConfigError, default_seat_zones, load_config, parse_config


def write(tmp_path, text: str):
    path = tmp_path / "table.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_without_a_file(monkeypatch, tmp_path):
    monkeypatch.setenv("TOCKTABLE_DATA", str(tmp_path / "data"))
    config = load_config(None)
    assert config.table.seats == 6 and config.table.variant == "holdem"
    assert config.blinds.levels == (BlindLevel(5, 10),)
    assert config.data_dir == tmp_path / "data"
    assert len(config.seat_zones()) == 6
    assert config.table.seat_names()[0] == "Seat 1"


def test_example_is_valid_and_matches_the_defaults():
    data = tomllib.loads(EXAMPLE)
    config = parse_config(data, source="example")
    defaults = parse_config({}, source="defaults")
    assert config.table.seats == defaults.table.seats and config.blinds == defaults.blinds
    assert config.pins.buttons == defaults.pins.buttons and config.pins.seat_leds == defaults.pins.seat_leds
    assert config.table.names == ("Ann", "Bob") and config.table.seat_names()[2] == "Seat 3"


def test_a_full_file(tmp_path):
    path = write(
        tmp_path,
        """
[table]
seats = 4
names = ["Ann", "Bob", "Cé", "Dai"]
variant = "tock"
betting = "fixed-limit"
[blinds]
levels = [[5, 10], [10, 20, 2]]
level_minutes = 12.5
[camera]
source = "0"
size = [1920, 1080]
[zones]
board = [[0.2, 0.3], [0.8, 0.3], [0.5, 0.7]]
seats = [[0, 0, 0.2, 0.2], [0.8, 0, 1, 0.2], [0.8, 0.8, 1, 1], [0, 0.8, 0.2, 1]]
[pins]
seat_leds = [5, 6, 13, 19]
[pins.buttons]
fold = 4
[web]
port = 9000
admin_pin = "4321"
[data]
dir = "/tmp/tt"
""",
    )
    config = load_config(path)
    assert config.table.variant == "tock" and config.table.seat_names()[2] == "Cé"
    assert config.blinds.levels[1] == BlindLevel(10, 20, 2) and config.blinds.level_minutes == 12.5
    assert config.camera.size == (1920, 1080) and config.zones.board[2] == (0.5, 0.7)
    assert config.seat_zones()[1][0] == (0.8, 0.0)
    assert config.pins.buttons[ConsoleButton.FOLD] == 4 and config.web.admin_pin == "4321"
    assert str(config.data_dir) == "/tmp/tt"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[table]\nseats = 11", r"table.toml: table.seats = 11 is not allowed: use 2..10"),
        ("[table]\nvariant = 'omaha'", r"table.variant = 'omaha' is not allowed: choose one of holdem, tock"),
        ("[table]\nseats = 'six'", r"table.seats = 'six' is not allowed: expected integer"),
        ("[table]\nseets = 6", r"table.seets is not a known setting: allowed here are"),
        ("[blinds]\nsmall = 5\nbig = 8", r"blinds.big = 8 is not allowed: the big blind must be at least twice"),
        ("[blinds]\nlevels = [[5]]", r"blinds.levels\[0\] must be \[small, big\]"),
        ("[camera]\nsize = [10, 10]", r"camera.size = \[10, 10\] is not allowed"),
        ("[zones]\nboard = [0.1, 0.2, 1.5, 0.3]", r"zones.board must be a rectangle"),
        ("[zones]\nseats = [[0, 0, 0.1, 0.1]]", r"zones.seats lists 1 zones but the table has 6 seats"),
        ("[web]\nadmin_pin = '12'", r"web.admin_pin must be 4 to 12 digits"),
        ("[web]\nport = 70000", r"web.port = 70000 is not allowed: use 1..65535"),
        ("[table\nseats = 6", r"table.toml: not valid TOML"),
        ("surprise = 1", r"table.toml: surprise is not a known setting"),
    ],
)
def test_errors_name_the_file_the_key_and_what_is_allowed(tmp_path, text, message):
    with pytest.raises(ConfigError, match=message) as info:
        load_config(write(tmp_path, text))
    assert isinstance(info.value, TocktableError) and isinstance(info.value, ValueError)


def test_pin_mistakes_name_the_file(tmp_path):
    with pytest.raises(
        PinMapError, match=r"table.toml: GPIO 17 is used twice, by pins.buttons.fold and by pins.buttons.undo"
    ):
        load_config(write(tmp_path, "[pins.buttons]\nundo = 17"))
    with pytest.raises(PinMapError, match="lists 2 LEDs but the table has 6 seats"):
        load_config(write(tmp_path, "[pins]\nseat_leds = [5, 6]"))


def test_missing_file(tmp_path):
    with pytest.raises(ConfigError, match=r"no such configuration file .*tocktable config --example"):
        load_config(tmp_path / "absent.toml")


def test_default_seat_zones_stay_inside_the_image():
    for seats in range(2, 11):
        zones = default_seat_zones(seats)
        assert len(zones) == seats
        assert all(0 <= x <= 1 and 0 <= y <= 1 for zone in zones for x, y in zone)


def test_cli_config_example_and_check(tmp_path, capsys):
    from tocktable.cli import main

    assert main(["config", "--example"]) == 0
    example = capsys.readouterr().out
    path = write(tmp_path, example)
    assert main(["config", str(path)]) == 0
    assert "valid. 6 seats" in capsys.readouterr().out
    bad = write(tmp_path, "[table]\nseats = 1\n")
    assert main(["config", str(bad)]) == 2
    assert "table.seats = 1 is not allowed: use 2..10" in capsys.readouterr().err


def test_the_house_options_first_dealer_and_two_players_reach_the_game(tmp_path):
    from tocktable.run import game_settings

    text = '[table]\nseats = 2\nvariant = "draw"\nfirst_dealer = "croupier"\n[draw]\ntwo_players = true\n'
    path = write(tmp_path, text)
    config = load_config(path)
    assert config.table.first_dealer == "croupier" and config.draw.two_players is True
    settings, players = game_settings(config)
    assert settings.first_dealer == "croupier" and settings.draw is not None and settings.draw.two_players is True
    assert len(players) == 2
    defaults, _ = game_settings(parse_config({}))
    assert defaults.first_dealer == "draw" and defaults.draw is None
    example = parse_config(tomllib.loads(EXAMPLE), source="example")
    assert example.table.first_dealer == "draw" and example.draw.two_players is False  # the example says the defaults


@pytest.mark.parametrize(("text", "message"), [
    ('[table]\nfirst_dealer = "highest"\n',
     "table.toml: table.first_dealer = 'highest' is not allowed: choose one of draw, croupier"),
    ("[draw]\ntwo_players = 1\n", "table.toml: draw.two_players = 1 is not allowed: expected true or false"),
    ('[table]\nseats = 2\nvariant = "draw"\n',
     "table.seats = 2 is not allowed with variant = 'draw': five-card draw is played by 3 to 6 players; for hands "
     "between two players set the house option draw.two_players = true"),
    ('[table]\nseats = 9\nvariant = "lowball"\n[draw]\ntwo_players = true\n',
     "five-card draw deals 2 to 8 players"),
])  # fmt: skip
def test_the_house_options_refused_with_what_is_allowed(tmp_path, text, message):
    with pytest.raises(ConfigError) as caught:
        load_config(write(tmp_path, text))
    assert message in str(caught.value)


def test_the_deck_letters_setting_is_checked_and_names_what_is_allowed(tmp_path):
    assert load_config(None).vision.indices == "en-fr-de"
    assert load_config(write(tmp_path, '[vision]\nindices = "nl"\n')).vision.indices == "nl"
    for bad in ('"fr"', '"NL"', "1"):
        with pytest.raises(ConfigError) as error:
            load_config(write(tmp_path, f"[vision]\nindices = {bad}\n"))
        assert "table.toml: vision.indices" in str(error.value)
        assert ("en-fr-de" in str(error.value) and "nl" in str(error.value)) or "expected text" in str(error.value)
    with pytest.raises(ConfigError, match=r"vision\.letters is not a known setting: allowed here are indices"):
        load_config(write(tmp_path, '[vision]\nletters = "nl"\n'))


def test_the_configuration_and_the_reader_know_the_same_letter_settings():
    from tocktable.config import INDEX_LETTERS
    from vision.letters import INDEX_SETTINGS

    assert INDEX_LETTERS == INDEX_SETTINGS
