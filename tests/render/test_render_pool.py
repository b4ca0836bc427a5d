"""Large images kept between renders (:mod:`bot.render.pool`): the pool stays bounded,
and an image composed on a kept one is the same as one composed on a new image."""

from __future__ import annotations

from PIL import Image

from bot.render import compact, render_scoreboard, render_table
from bot.render.pool import ImagePool

from .helpers import classic, with_state


def test_the_pool_gives_back_what_it_kept_and_keeps_at_most_its_bound() -> None:
    pool = ImagePool(keep=2)
    made: list[Image.Image] = []

    def make() -> Image.Image:
        made.append(Image.new("P", (3, 2)))
        return made[-1]

    first = pool.take("a", make)
    assert pool.take("a", make) is not first  # in use: another thread gets its own
    pool.give("a", first)
    assert pool.take("a", make) is first and len(made) == 2
    for key in "abc":
        pool.give(key, Image.new("P", (1, 1)))
    assert len(pool) == 2
    pool.clear()
    assert len(pool) == 0


def test_a_scoreboard_composed_on_a_kept_image_is_the_one_composed_on_a_new_image() -> None:
    early = with_state(classic(3), 1, crossed={"red": [2, 3, 4]}, penalties=1)
    late = with_state(
        classic(3), 2, crossed={"blue": [12, 11, 9, 8, 7, 6, 2]}, closed=("blue",), penalties=2
    )
    names = {1: "Ana", 2: "Mehmet", 3: "Zofia"}
    compact.SURFACES.clear()
    fresh = render_scoreboard(late, names)
    render_table(early, names)
    render_scoreboard(early, names)  # the kept images now hold other pixels
    assert render_scoreboard(late, names) == fresh
