"""Make the README's pictures and sample replays again.

    python docs/make_pictures.py            # -> docs/pictures/*.png, docs/replays/*.html

For each game: one recorded bot game (the game's heuristic against random,
seed 0, kept short by the options below), the picture of a position from
its middle (the full position), and the self-contained replay page of the
whole game. Everything comes from the public commands' code paths:
``play_match(records=...)``, ``render_image``, ``write_html``.
"""
import pathlib
import sys
import tempfile

import dragongym
from dragongym.agents.game_record import read_records
from dragongym.agents.match import play_match
from dragongym.agents.replay_media import positions, write_html
from dragongym.envs.core.picture import render_image

HERE = pathlib.Path(__file__).resolve().parent
GAMES = {
    "dragonhunt": {"num_players": 3, "max_hands": 2},
    "dragons_down": {"num_players": 2, "sandbox": "open_realm", "max_turns": 6},
    "dragon_pass": {"scenario": "18.1"},
}
"""Each game's options: a game short enough for a replay page of about a megabyte."""


def main():
    (HERE / "pictures").mkdir(exist_ok=True)
    (HERE / "replays").mkdir(exist_ok=True)
    for name, options in GAMES.items():
        game = dragongym.get_game(name)
        seats = game.spec_for(game.make_config(**options)).num_seats
        agents = [game.heuristic_agent] + ["random"] * (seats - 1)
        with tempfile.TemporaryDirectory() as folder:
            path = pathlib.Path(folder) / "game.jsonl"
            play_match(name, agents, 1, seed=0, records=str(path), **options)
            (record,) = read_records(path)
        middle = len(record.actions) // 2
        for index, state, *_ in positions(record, game):
            if index == middle:
                render_image(game, state, None).save(HERE / "pictures" / f"{name}.png", optimize=True)
                break
        write_html(record, HERE / "replays" / f"{name}.html")
        print(f"{name}: {len(record.actions)} decisions; docs/pictures/{name}.png, docs/replays/{name}.html",
              file=sys.stderr)


if __name__ == "__main__":
    main()
