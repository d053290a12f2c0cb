"""mslint's own version, as installed (its package metadata)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    VERSION = version("mslint")
except PackageNotFoundError:  # running from a source tree that is not installed
    VERSION = "0.0.0+unknown"


def _direct_url() -> dict | None:
    """How this mslint was installed (PEP 610's direct_url.json: a local folder,
    editable or not, a VCS or archive URL), or None (an index such as PyPI)."""
    import json  # noqa: PLC0415
    from importlib.metadata import distributions  # noqa: PLC0415

    for distribution in distributions(name="mslint"):  # a stale egg-info may come first
        try:
            text = distribution.read_text("direct_url.json")
        except OSError:
            continue
        if text:
            try:
                data = json.loads(text)
            except ValueError:
                continue
            return data if isinstance(data, dict) else None
    return None


def install_hint(extra: str) -> str:
    """The command that installs mslint's ``extra`` (runtime, server, ...) into
    the Python running mslint, the way this mslint was installed: from a clone
    (``pip install -e '/path/to/clone[runtime]'``), from a VCS URL, or from an
    index (``pip install 'mslint[runtime]'``)."""
    import shlex  # noqa: PLC0415
    import sys  # noqa: PLC0415
    from urllib.parse import urlparse  # noqa: PLC0415
    from urllib.request import url2pathname  # noqa: PLC0415

    spec = shlex.quote(f"mslint[{extra}]")
    info = _direct_url()
    if info is not None:
        url = str(info.get("url", ""))
        if isinstance(info.get("vcs_info"), dict):
            spec = shlex.quote(f"mslint[{extra}] @ {info['vcs_info'].get('vcs', 'git')}+{url}")
        elif url.startswith("file:"):
            folder = url2pathname(urlparse(url).path)
            editable = isinstance(info.get("dir_info"), dict) and info["dir_info"].get("editable")
            spec = ("-e " if editable else "") + shlex.quote(f"{folder}[{extra}]")
        elif url:
            spec = shlex.quote(f"mslint[{extra}] @ {url}")
    return f"{shlex.quote(sys.executable)} -m pip install {spec}"
