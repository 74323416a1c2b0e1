"""In Chromium, with every request to another site blocked: the API docs (Swagger UI) render
from our own files, no page of the demo campaign breaks the Content-Security-Policy, and what
moved out of inline handlers still works."""

from urllib.parse import urljoin, urlparse

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from characters.models import Character
from conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


class OfflinePage:
    """A page whose requests to other hosts are aborted and recorded, as are CSP violations
    and script errors."""

    def __init__(self, browser, live_server):
        self.host = urlparse(live_server.url).hostname
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.offsite: list[str] = []
        self.problems: list[str] = []
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.set_default_timeout(15_000)
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.problems.append(f"{self.page.url}: {error}"))

    def _route(self, route):
        if urlparse(route.request.url).hostname in (self.host, "localhost", "127.0.0.1"):
            route.continue_()
        else:
            self.offsite.append(route.request.url)
            route.abort()

    def _console(self, message):
        if message.type == "error" and ("Content Security Policy" in message.text or "Refused to" in message.text):
            self.problems.append(f"{self.page.url}: {message.text}")


@pytest.fixture
def offline(browser, live_server):
    pages = []

    def open_page() -> OfflinePage:
        pages.append(OfflinePage(browser, live_server))
        return pages[-1]

    yield open_page
    for page in pages:
        page.context.close()


def _log_in_as_the_demo_gm(page, live_server):
    """Load the demo campaign and log its GM in; return the GM."""
    call_command("seed_demo")
    gm = get_user_model().objects.get(username="gm")
    gm.set_password(PASSWORD)
    gm.save()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "gm")
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    return gm


def test_swagger_ui_renders_from_local_files_only(offline, live_server):
    viewer = offline()
    viewer.page.goto(f"{live_server.url}/api/docs/")
    title = viewer.page.locator(".swagger-ui .info .title")
    title.wait_for(state="visible")
    assert "Zener Gate campaign manager API" in title.inner_text()
    viewer.page.locator(".swagger-ui .opblock").first.wait_for(state="visible")  # the schema loaded
    assert viewer.offsite == []
    assert viewer.problems == []


def test_no_page_of_the_demo_breaks_the_content_security_policy(offline, live_server):
    viewer = offline()
    page = viewer.page
    _log_in_as_the_demo_gm(page, live_server)

    # Every page reachable by links from the campaigns page (the GM sees them all), up to a bound.
    seen, queue, visited = {"/"}, ["/"], 0
    while queue and visited < 40:
        url = queue.pop(0)
        response = viewer.context.request.get(live_server.url + url)
        if "text/html" not in response.headers.get("content-type", ""):
            continue  # a PDF, an export
        page.goto(live_server.url + url)
        page.wait_for_load_state("networkidle")
        visited += 1
        for href in page.eval_on_selector_all("a[href]", "links => links.map(a => a.getAttribute('href'))"):
            target = urlparse(urljoin(live_server.url + url, href))
            if target.hostname != viewer.host or target.path in seen or target.path.startswith("/admin/"):
                continue
            seen.add(target.path)
            queue.append(target.path)
    assert visited >= 10, f"only {visited} pages reached: {sorted(seen)}"
    assert viewer.offsite == []
    assert viewer.problems == []


def test_reverting_a_sheet_still_asks_first(offline, live_server):
    """The question moved from an inline onsubmit handler to static/js (data-confirm)."""
    viewer = offline()
    page = viewer.page
    gm = _log_in_as_the_demo_gm(page, live_server)
    character = Character.objects.filter(campaign__memberships__user=gm).order_by("pk").first()
    history = f"{live_server.url}/characters/{character.pk}/history/"
    page.goto(history)
    posts, questions = [], []
    page.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)
    revert = page.locator("button:has-text('Revert to here')").first

    page.once("dialog", lambda dialog: (questions.append(dialog.message), dialog.dismiss()))
    revert.click()
    page.wait_for_timeout(500)
    assert len(questions) == 1 and questions[0].startswith(f"Put {character.name} back as it was at ")
    assert posts == []  # "no": nothing sent

    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_navigation():
        revert.click()
    assert posts == [f"{live_server.url}/characters/{character.pk}/revert/"]
    assert viewer.problems == []
