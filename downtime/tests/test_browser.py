"""In Chromium: the GM previews and starts a downtime on a phone; the progress bar moves; the
player's open sheet shows the healed wounds without a reload."""

import pytest
from playwright.sync_api import expect

from characters.models import Character

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_gm_runs_downtime_and_alices_sheet_heals_live(personas, wounded, page_for, live_server, start_worker):
    alice = wounded("player", name="Alice Varga", trauma=4, shock=3, end=5, stat_damage={"RES": 1})
    fields = {f.attname: getattr(alice, f.attname) for f in Character._meta.concrete_fields
              if f.attname not in ("id", "created_at", "updated_at")}
    # Enough company that the job takes a few batches and the bar has somewhere to move.
    Character.objects.bulk_create([Character(**{**fields, "name": f"Trooper {n}"}) for n in range(59)])
    start_worker(extra_env={"DOWNTIME_BATCH": "5", "DOWNTIME_BATCH_PAUSE_SECONDS": "0.4"})

    sheet = page_for(personas["player"], width=390, height=844)
    sheet.goto(f"{live_server.url}/characters/{alice.pk}/")
    panel = sheet.locator("#wounds")
    assert "trauma 4" in panel.inner_text()

    gm = page_for(personas["gm"], width=390, height=844)
    gm.goto(f"{live_server.url}/campaigns/{personas['campaign'].pk}/")
    gm.click("text=Advance downtime")
    gm.fill("#id_hours", "24")
    gm.click("button:has-text('Preview')")
    preview = gm.locator("#preview")
    alice_row = preview.locator(f"[data-character='{alice.pk}']")
    assert alice_row.locator("[data-after=trauma]").inner_text() == "2"  # ⌈4 / 3⌉ healed after a day
    assert "nothing has changed" in preview.inner_text()
    assert "trauma 4" in panel.inner_text()  # the preview changed nothing

    gm.click("button:has-text('Start downtime')")
    bar = gm.locator(".job progress")
    seen = set()
    for _ in range(400):
        seen.add(int(bar.get_attribute("value")))
        if "Done" in gm.locator(".job [data-status]").inner_text():
            break
        gm.wait_for_timeout(50)
    assert "Done" in gm.locator(".job [data-status]").inner_text()
    assert any(0 < value < 60 for value in seen), f"the bar only showed {sorted(seen)}"
    assert gm.locator(f".job [data-character='{alice.pk}'] [data-after=trauma]").inner_text() == "2"

    # Alice's sheet was open all along: the wound panel heals without a reload.
    expect(sheet.locator("#wounds")).to_contain_text("trauma 2", use_inner_text=True, timeout=5_000)
    assert "RES damage" not in sheet.locator("#wounds").inner_text()
    assert sheet.evaluate("performance.getEntriesByType('navigation').length") == 1
