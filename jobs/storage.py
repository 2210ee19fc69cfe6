"""Where finished jobs keep their files: the "jobs" storage of STORAGES.

A local folder by default; with several application servers, an S3-compatible store through
django-storages (README, "Background jobs"), so that whichever server answers the download
can read the file any worker wrote.
"""

from __future__ import annotations

import os
import tempfile

from django.core.files.base import File
from django.core.files.storage import FileSystemStorage, Storage, storages

STORAGE_ALIAS = "jobs"


def job_storage() -> Storage:
    return storages[STORAGE_ALIAS]


class AtomicFileSystemStorage(FileSystemStorage):
    """A folder whose files appear whole or not at all.

    Django's FileSystemStorage writes straight into the final name, so a worker killed while
    writing would leave half a PDF under a real name. This one writes to a hidden temporary
    file beside it and renames it into place once complete (a rename within one folder is
    atomic). An S3 upload is atomic by itself: the object exists only once complete.
    """

    def _save(self, name: str, content: File) -> str:
        path = self.path(name)
        directory = os.path.dirname(path)
        os.makedirs(directory, exist_ok=True)
        handle, partial = tempfile.mkstemp(dir=directory, prefix=".partial-")
        try:
            with os.fdopen(handle, "wb") as out:
                for chunk in content.chunks():
                    out.write(chunk)
            # mkstemp makes it 0600: the web server may run as another user than the worker.
            os.chmod(partial, self.file_permissions_mode or 0o644)
            # get_available_name gave a free name; the job's names are unique besides.
            os.replace(partial, path)
        except BaseException:
            os.unlink(partial)
            raise
        return name.replace("\\", "/")
