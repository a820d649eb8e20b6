"""Output files whose write errors name them."""

from __future__ import annotations

import os


class OutputFile:
    """A text file opened for writing whose OSErrors name it. A full disk shows at a write or
    at the close that flushes it as "[Errno 28] No space left on device" alone, which does not
    say which of a command's outputs it was (hmmsearch has five)."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.name = os.fspath(path)
        # surrogateescape: target names decoded from non-UTF-8 bytes are written back as is
        self._fh = open(path, "w", encoding="utf-8", errors="surrogateescape")

    def _named(self, error: OSError) -> OSError:
        if error.filename is not None:
            return error
        return OSError(error.errno, error.strerror, self.name)

    def write(self, text: str) -> int:
        try:
            return self._fh.write(text)
        except OSError as error:
            raise self._named(error) from error

    def flush(self) -> None:
        try:
            self._fh.flush()
        except OSError as error:
            raise self._named(error) from error

    def close(self) -> None:
        try:
            self._fh.close()
        except OSError as error:
            raise self._named(error) from error
