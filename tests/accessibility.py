"""axe-core for the browser tests: the pinned release from the npm registry, checked and cached.

The tarball's integrity (the registry's sha512) is pinned with its version, so a changed or
truncated download fails loudly instead of checking pages with something else. The script is
kept in the user's cache folder; a second run reads it from there.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import tarfile
import urllib.request
from pathlib import Path

AXE_VERSION = "4.14.1"
AXE_TARBALL = f"https://registry.npmjs.org/axe-core/-/axe-core-{AXE_VERSION}.tgz"
AXE_INTEGRITY = "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ=="

#: WCAG 2.2 level A and AA, as axe tags its rules.
WCAG_AA_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
#: The impacts that fail a page.
FAILING_IMPACTS = ("serious", "critical")


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "zenergate"


def axe_source() -> str:
    """Return axe.min.js of the pinned release, downloading it once."""
    cached = _cache_dir() / f"axe-core-{AXE_VERSION}.min.js"
    if cached.exists():
        return cached.read_text(encoding="utf-8")
    with urllib.request.urlopen(AXE_TARBALL, timeout=60) as response:  # noqa: S310 (a fixed https address)
        tarball = response.read()
    algorithm, expected = AXE_INTEGRITY.split("-", 1)
    digest = base64.b64encode(hashlib.new(algorithm, tarball).digest()).decode()
    if digest != expected:
        raise RuntimeError(f"axe-core {AXE_VERSION} from {AXE_TARBALL} does not match its pinned integrity")
    with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as archive:
        source = archive.extractfile("package/axe.min.js").read().decode("utf-8")
    cached.parent.mkdir(parents=True, exist_ok=True)
    partial = cached.with_suffix(".part")
    partial.write_text(source, encoding="utf-8")
    partial.replace(cached)
    return source


def serious_violations(page) -> list[str]:
    """Run axe on the page as it is now; return one line per serious or critical violation.

    The page must allow the script (a context made with ``bypass_csp=True``): the site's CSP
    refuses inline scripts, as it should.
    """
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe_source())
    found = page.evaluate(
        """async (tags) => {
            const result = await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
            return result.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ')),
                count: v.nodes.length,
            }));
        }""",
        WCAG_AA_TAGS,
    )
    return [f"{v['impact']} {v['id']} ({v['help']}) ×{v['count']}: {'; '.join(v['nodes'])}"
            for v in found if v["impact"] in FAILING_IMPACTS]
