"""report.html in a real headless Chromium: the matrix is in the DOM, a link to a pair opens its details, and
the page logs nothing to the console (no script errors, no blocked network requests)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from grade_helpers import sample_gradebook

from judge.reporters.gradebook import page

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--enable-logging=stderr", "--v=0"]

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(),
                                reason="needs Chromium at /usr/bin/chromium (apt-get install chromium)")


def _chromium(tmp_path: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(CHROMIUM), *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", *arguments],
                          capture_output=True, text=True, timeout=120)


def test_the_report_renders_and_opens_a_pair_without_console_messages(tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    report.write_text(page.render(sample_gradebook(tmp_path, student="<i>kim &amp; co")), encoding="utf-8")

    done = _chromium(tmp_path, "--dump-dom", f"{report.as_uri()}#pair-2")

    assert done.returncode == 0, done.stderr
    dom = done.stdout
    assert '<table id="matrix" class="matrix">' in dom
    assert "<td class=\"student\">&lt;i&gt;kim &amp;amp; co</td>" in dom  # escaped, not markup
    assert '<details class="pair flash" id="pair-2" open="">' in dom  # the script ran and opened it
    assert dom.count("<details") == 3 and dom.count("<svg") == 2
    console = [line for line in done.stderr.splitlines() if "CONSOLE" in line]
    assert console == []


def test_the_report_screenshot_is_drawn(tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    report.write_text(page.render(sample_gradebook(tmp_path)), encoding="utf-8")
    shot = tmp_path / "report.png"

    done = _chromium(tmp_path, f"--screenshot={shot}", "--window-size=1200,900", report.as_uri())

    assert done.returncode == 0, done.stderr
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000


def test_a_hangul_font_is_installed_and_first_in_the_page_font_stack_that_has_one(tmp_path: Path) -> None:
    """Korean names would render as boxes without a Hangul font; scripts/setup.sh --test installs Noto CJK."""
    done = subprocess.run(["fc-list", ":lang=ko", "family"], capture_output=True, text=True, timeout=60)
    families = {name.strip() for line in done.stdout.splitlines() for name in line.split(",") if name.strip()}
    assert families, "no font with Hangul installed (apt-get install fonts-noto-cjk)"
    html = page.render(sample_gradebook(tmp_path))
    assert any(f'"{family}"' in html for family in families), families
