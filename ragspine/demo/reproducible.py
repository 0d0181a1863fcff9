"""Office files written the same, byte for byte, on every build.

An Office Open XML file (.pptx, .xlsx, .docx) is a zip; the libraries that write one stamp the
clock in two places: each zip entry's modification time and the core properties' ``created``
and ``modified`` dates (``docProps/core.xml``). Everything else they write follows from the
content. Both are set here to one fixed date, so a rebuilt demo file has the same hash as the
last one, and so does every fact's lineage and every request a cassette recorded with it.
(The demo writes no PDF; a PDF's creation date and document id would be fixed the same way.)
"""

from __future__ import annotations

import os
import re
import zipfile
from datetime import UTC, datetime
from pathlib import Path

# The demo's documents are dated, not timed: any fixed instant will do; this one reads as such.
FIXED_DATE = datetime(2025, 1, 1, tzinfo=UTC)
_CORE = "docProps/core.xml"
_STAMPED = re.compile(r"(<dcterms:(created|modified)\b[^>]*>)[^<]*(</dcterms:\2>)")


def fix_office_dates(path: Path, when: datetime = FIXED_DATE) -> None:
    """Rewrite the zip at ``path`` in place with every clock stamp set to ``when``.

    Entries keep their order, names and content; each is deflated again with the same settings
    and the same attributes, so the bytes depend on the content alone.
    """
    stamp = when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    with zipfile.ZipFile(path) as source:
        entries = [(info.filename, source.read(info)) for info in source.infolist()]
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with zipfile.ZipFile(tmp, "w") as target:
        for name, data in entries:
            if name == _CORE:
                text = _STAMPED.sub(rf"\g<1>{stamp}\g<3>", data.decode("utf-8"))
                data = text.encode("utf-8")
            info = zipfile.ZipInfo(name, date_time=when.timetuple()[:6])
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            target.writestr(info, data)
    tmp.replace(path)
