"""Drives one World Cup page on each of two servers sharing a store, for TwoServerBrowserTests.swift.

Opens page A on the first server and page B on the second in two headless Chromium windows,
then runs the steps given as JSON: each step clicks teams and adds teams through the pages'
forms, on either page, one after another without waiting for their batches. After each step it
waits until the store holds every win and team the step made (GET /api/teams), then gives each
page up to --settle seconds to show the same table, and records both pages' tables from the DOM
next to a fresh read of the store from each server, with the mark each document got when it was
opened, the batches and snapshots each page applied, when (Date.now()) each click was made and
each batch was applied, and the teams a step was to click that the page did not show. Prints
one JSON object on stdout; the Swift test makes the comparisons. Exits 1, with {"error": ...},
when the browser cannot start or a step cannot be done.
"""
import argparse
import json
import urllib.request

from selenium.common.exceptions import ElementClickInterceptedException, StaleElementReferenceException
from selenium.webdriver.common.by import By

from two_pages import FIND_TEAM_BUTTON, READ_TABLE, Failure, print_report, start_browser, wait, wait_quietly

# Marks the document, so that a reload (which would replace it) shows, and notes when the page
# applies a message (page.js sets body's data-seq after each snapshot or batch) and when a click
# is made on it.
WATCH_PAGE = """
window.browserTest = { load: arguments[0], applied: [], actions: [] };
new MutationObserver(() => window.browserTest.applied.push({ seq: Number(document.body.dataset.seq), at: Date.now() }))
  .observe(document.body, { attributes: true, attributeFilter: ['data-seq'] });
document.addEventListener('click', () => window.browserTest.actions.push(Date.now()), true);
"""

# No row is sliding into place (a moved row's transform transition).
ROWS_STILL = "return !document.getAnimations().some((animation) => animation.effect && animation.effect.target && animation.effect.target.matches('li.team') && animation.playState === 'running' && animation.transitionProperty === 'transform')"

READ_PAGE = """
const feed = window.worldCup;
const watch = window.browserTest || { load: null, applied: [], actions: [] };
return { load: watch.load, applied: watch.applied, actions: watch.actions,
         seq: feed.seq, batches: feed.batches, snapshots: feed.snapshots, resyncs: feed.resyncs, errors: feed.errors };
"""


def normalized(table):
    """A table as GET /api/teams and READ_TABLE both write it, to compare them here."""
    return json.dumps({
        "sections": [{"name": section["name"], "title": section.get("title"),
                      "teams": [{"id": team["id"], "name": team["name"], "wins": team["wins"]} for team in section["teams"]]}
                     for section in table["sections"]],
        "indexTitles": table["indexTitles"],
    }, sort_keys=True)


def totals(table):
    """The number of teams and of wins: what a step's actions add to."""
    teams = [team for section in table["sections"] for team in section["teams"]]
    return len(teams), sum(team["wins"] for team in teams)


class Session:
    def __init__(self, arguments):
        self.urls = arguments.urls
        self.settle = arguments.settle
        self.pages = []
        self.checkpoints = []
        self.unclicked = []

    def fresh(self, url):
        with urllib.request.urlopen(url + "/api/teams", timeout=120) as response:
            return json.load(response)

    def open_page(self, driver, url, name):
        driver.get(url + "/")
        # Live: the socket's snapshot has arrived.
        wait(f"page {name}'s WebSocket snapshot", lambda: driver.execute_script(
            "return window.worldCup && window.worldCup.snapshots >= 2 && !window.worldCup.awaitingSnapshot"))
        driver.execute_script(WATCH_PAGE, f"page {name}, load 1")

    def act(self, action):
        driver = self.pages[action["page"]]
        if "click" in action:
            # A batch from the other page's clicks may slide rows under the pointer, or replace
            # the row (a moved row is a new element) between finding its button and clicking it:
            # then wait for the rows to settle and try again.
            for _ in range(10):
                wait_quietly(lambda: driver.execute_script(ROWS_STILL), timeout=5)
                button = driver.execute_script(FIND_TEAM_BUTTON, action["click"])
                if button is None:
                    # The page does not show the team (say, one the other page added): the
                    # Swift test reports it, with how the pages differ from the store.
                    self.unclicked.append(f"{action['click']} on page {'AB'[action['page']]}")
                    return 0, 0
                try:
                    button.click()
                    return 0, 1
                except (StaleElementReferenceException, ElementClickInterceptedException):
                    continue
            raise Failure(f"the row of {action['click']!r} kept moving before it could be clicked")
        form = driver.find_element(By.ID, "add-team")
        form.find_element(By.NAME, "name").send_keys(action["add"])
        form.find_element(By.NAME, "zone").send_keys(action["zone"])
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        # Wait for the form's reset (the server's ack), so the next add types into an empty form.
        wait(f"the ack of adding {action['add']}", lambda: form.find_element(By.NAME, "name").get_attribute("value") == "")
        return 1, 0

    def checkpoint(self, name, expected=None):
        """Waits for the store to hold `expected` (teams, wins), then up to --settle seconds for
        both pages to show what it holds; records the pages next to each server's fresh read."""
        if expected is not None:
            wait_quietly(lambda: totals(self.fresh(self.urls[0])) == expected, timeout=60)
        fresh = self.fresh(self.urls[0])
        for driver in self.pages:
            wait_quietly(lambda: normalized(driver.execute_script(READ_TABLE)) == normalized(fresh), timeout=self.settle)
        self.checkpoints.append({
            "name": name,
            "fresh": [fresh] + [self.fresh(url) for url in self.urls],
            "pages": [driver.execute_script(READ_TABLE) for driver in self.pages],
            "feeds": [driver.execute_script(READ_PAGE) for driver in self.pages],
            "unclicked": self.unclicked,
        })
        self.unclicked = []

    def run(self, steps):
        try:
            self.pages = [start_browser(1100, 900) for _ in self.urls]
            for number, (driver, url) in enumerate(zip(self.pages, self.urls)):
                self.open_page(driver, url, "AB"[number])
            self.checkpoint("opened")
            for step in steps:
                teams, wins = totals(self.checkpoints[-1]["fresh"][0])
                for action in step["actions"]:
                    added, won = self.act(action)
                    teams, wins = teams + added, wins + won
                self.checkpoint(step["name"], expected=(teams, wins))
            return {
                "checkpoints": self.checkpoints,
                "consoleErrors": [entry["message"] for driver in self.pages
                                  for entry in driver.get_log("browser") if entry["level"] == "SEVERE"],
            }
        finally:
            for driver in self.pages:
                driver.quit()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--urls", nargs=2, required=True, help="the two servers' base URLs: page A's, then page B's")
    parser.add_argument("--steps", required=True,
                        help='JSON: [{"name": …, "actions": [{"page": 0, "click": TEAM} or {"page": 1, "add": NAME, "zone": ZONE}, …]}, …]')
    parser.add_argument("--settle", type=float, default=20, help="seconds a page gets to show the store after a step")
    arguments = parser.parse_args()
    print_report(lambda: Session(arguments).run(json.loads(arguments.steps)))


if __name__ == "__main__":
    main()
