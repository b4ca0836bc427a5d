"""Large images kept between uses to draw or compose on.

An image made anew for every render is fresh memory each time, and the page faults of
filling it can take longer than the drawing: a 5-player scoreboard's 1.3 MB costs
hundreds of them.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from PIL import Image


class ImagePool:
    """At most ``keep`` images, by key, the least recently given back dropped first.
    Each thread takes its own (the pool keeps none that is in use) and gives it back when
    done; what the image holds then is the taker's to restore or overwrite."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self._images: OrderedDict[Hashable, Image.Image] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, key: Hashable, make: Callable[[], Image.Image]) -> Image.Image:
        """The image kept for ``key``, or a new one from ``make``."""
        with self._lock:
            image = self._images.pop(key, None)
        return image if image is not None else make()

    def give(self, key: Hashable, image: Image.Image) -> None:
        with self._lock:
            self._images[key] = image
            while len(self._images) > self.keep:
                self._images.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._images.clear()

    def __len__(self) -> int:
        return len(self._images)
