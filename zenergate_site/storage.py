"""Static files storage: WhiteNoise's hashed, compressed files, compressing only what is new.

Compressing every file (Swagger UI and ReDoc are megabytes) takes most of a minute, and
`make run` collects static files each time it starts. Only files under hashed names are kept
and compressed (WHITENOISE_KEEP_ONLY_HASHED_FILES), and a hashed name fixes the content, so a
compressed copy that exists under that name is current. `collectstatic --clear` starts over.
"""

import os

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    def compress_files(self, paths):
        yield from super().compress_files([path for path in paths if not self._compressed(path)])

    def _compressed(self, path: str) -> bool:
        source = self.path(path)
        return any(os.path.exists(source + suffix) for suffix in (".br", ".gz"))
