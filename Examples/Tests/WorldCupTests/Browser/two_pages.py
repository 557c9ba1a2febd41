"""Drives the World Cup page in two headless Chromium windows for BrowserTests.swift.

Opens the page twice, clicks a team in the first, adds a team in a new zone and a team whose
name is markup through the form of the second, reloads the first, has the test make random
writes (POST /_test/random-writes) while both watch, hands the second page a gap in the batches
and a batch that does not fit, and after each step reads both
pages' tables from the DOM next to the test's own fresh fetch (GET /_test/fresh), with the mark
each document got when it was opened, the number of batches each page applied, and the CSS
animations and transitions that started on rows and sections. Then runs table.js's applyBatch
over recorded batches. Prints one JSON object on stdout; the Swift test
makes the comparisons. Exits 1, with {"error": ...}, when the browser cannot start or a step
cannot be done.
"""
import argparse
import json
import sys
import time
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

READ_TABLE = """
const sections = [...document.querySelectorAll('#table > section.zone')].map((section) => ({
  name: section.querySelector('h2').textContent,
  title: section.dataset.title || null,
  teams: [...section.querySelectorAll('li.team')].map((row) => ({
    id: row.dataset.id,
    name: row.querySelector('.name').textContent,
    wins: parseInt(row.querySelector('.wins').textContent, 10),
  })),
}));
const indexTitles = [...document.querySelectorAll('#index button')].map((button) => button.textContent);
return { sections, indexTitles };
"""

FIND_TEAM_BUTTON = """
const row = [...document.querySelectorAll('li.team')].find((row) => row.querySelector('.name').textContent === arguments[0]);
return row ? row.querySelector('button') : null;
"""

REPLAY = """
const fixture = arguments[0];
const list = new WorldCupTable.ModelList(fixture.initial);
let failure = null;
for (const [number, batch] of fixture.batches.entries()) {
  try {
    WorldCupTable.applyBatch(list, batch);
  } catch (error) {
    failure = 'batch ' + number + ': ' + error.message;
    break;
  }
}
let refusal = null;
try {
  const wrong = { sections: [], rows: [{ change: 'delete', id: 'p0', from: { section: 0, row: 0 } }], indexTitles: [] };
  WorldCupTable.applyBatch(new WorldCupTable.ModelList(fixture.initial), wrong);
} catch (error) {
  refusal = String(error.message);
}
return { table: failure ? null : list.table(), failure, refusal };
"""


# Marks the document, so that a reload (which would replace it) shows, and records the CSS
# animations and transitions that start on rows and sections from now on.
WATCH_PAGE = """
window.browserTest = { load: arguments[0], motion: [] };
function record(target, kind, name) {
  let on, label;
  if (target.matches('li.team')) {
    on = 'team';
    label = target.querySelector('.name').textContent;
  } else if (target.matches('section.zone')) {
    on = 'zone';
    label = target.querySelector('h2').textContent;
  } else {
    return;
  }
  window.browserTest.motion.push({ on, label, kind, name });
}
document.addEventListener('animationstart', (event) => record(event.target, 'animation', event.animationName));
document.addEventListener('transitionrun', (event) => record(event.target, 'transition', event.propertyName));
"""

READ_WATCH = "return window.browserTest ? { load: window.browserTest.load, motion: window.browserTest.motion } : { load: null, motion: [] }"

INJECT = """
const EMPTY = { sections: [], rows: [], indexTitles: [] };
const first = document.querySelector('li.team').dataset.id;
const BAD = { sections: [], rows: [{ change: 'delete', id: first + '0', from: { section: 0, row: 0 } }], indexTitles: [] };
window.worldCup.receive(MESSAGE);
"""


class Failure(Exception):
    pass


def start_browser(width, height):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--hide-scrollbars", f"--window-size={width},{height}"]:
        options.add_argument(argument)
    # Leave alerts open, so that the test can see one if a name ran as script.
    options.set_capability("unhandledPromptBehavior", "ignore")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    except Exception as error:  # the message says which part is missing
        raise Failure(f"headless Chromium did not start: {error}")
    # The window size includes the browser's frame: grow it so the page gets the size asked for.
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    driver.set_window_size(2 * width - inner[0], 2 * height - inner[1])
    return driver


# Long: the Swift test suite runs at once on two cores, and the browser waits its turn.
def wait(description, condition, timeout=120):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise Failure(f"timed out after {timeout} s waiting for {description}")


def wait_quietly(condition, timeout):
    """`wait` that gives up without failing: for what the Swift test checks afterwards."""
    try:
        return wait("", condition, timeout)
    except Failure:
        return None


def page_seq(driver):
    return driver.execute_script("return window.worldCup && window.worldCup.awaitingSnapshot === false ? window.worldCup.seq : null")


def alert_open(driver):
    try:
        WebDriverWait(driver, 0.3).until(expected_conditions.alert_is_present())
        driver.switch_to.alert.accept()
        return True
    except TimeoutException:
        return False


class Session:
    def __init__(self, arguments):
        self.arguments = arguments
        self.pages = []
        self.checkpoints = []
        self.loads = {}

    def fresh(self):
        with urllib.request.urlopen(self.arguments.url + "/_test/fresh", timeout=120) as response:
            return json.load(response)

    def open_page(self, driver, number):
        driver.get(self.arguments.url + "/")
        # Live: the socket's snapshot has arrived.
        wait("the page's WebSocket snapshot", lambda: driver.execute_script(
            "return window.worldCup && window.worldCup.snapshots >= 2 && !window.worldCup.awaitingSnapshot"))
        self.loads[number] = self.loads.get(number, 0) + 1
        driver.execute_script(WATCH_PAGE, f"page {number}, load {self.loads[number]}")

    def checkpoint(self, name, actor=None, before=None, motion=()):
        """Waits for `actor` to apply a batch after `before`, then for both pages to reach the
        server's sequence number, and for each page to start the animations and transitions in
        `motion` ((label, animation or property name) pairs); records both tables next to a fresh
        fetch, with each page's load mark, applied batches and what moved since the last one."""
        if actor is not None:
            wait(f"{name}: a batch on the page that acted", lambda: (page_seq(actor) or -1) > before)
        fresh = self.fresh()
        for number, driver in enumerate(self.pages):
            wait(f"{name}: page {number + 1} reaching batch {fresh['seq']}", lambda: page_seq(driver) == fresh["seq"])
        # Animations start on the frame after the batch. A page that does not animate waits
        # out the timeout, and the Swift test says what was missing.
        for driver in self.pages:
            wait_quietly(lambda: all(any(entry["label"] == label and entry["name"] == moved
                                         for entry in driver.execute_script(READ_WATCH)["motion"])
                                     for label, moved in motion), timeout=30)
        watched = [driver.execute_script(READ_WATCH) for driver in self.pages]
        for driver in self.pages:
            driver.execute_script("if (window.browserTest) window.browserTest.motion = []")
        self.checkpoints.append({
            "name": name,
            "fresh": fresh,
            "pages": [driver.execute_script(READ_TABLE) for driver in self.pages],
            "loads": [page["load"] for page in watched],
            "batches": [driver.execute_script("return window.worldCup.batches") for driver in self.pages],
            "motion": [page["motion"] for page in watched],
        })

    def add_team(self, driver, name, zone):
        form = driver.find_element(By.ID, "add-team")
        form.find_element(By.NAME, "name").send_keys(name)
        form.find_element(By.NAME, "zone").send_keys(zone)
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()

    def run(self):
        arguments = self.arguments
        result = {}
        try:
            self.pages = [start_browser(arguments.width, arguments.height) for _ in range(2)]
            first, second = self.pages
            for number, driver in enumerate(self.pages, start=1):
                self.open_page(driver, number)
            self.checkpoint("opened")

            before = page_seq(first)
            button = first.execute_script(FIND_TEAM_BUTTON, arguments.click)
            if button is None:
                raise Failure(f"no team named {arguments.click!r} on the first page")
            button.click()
            # The team moves up past another: it flashes and slides into place. (The Swift test
            # checks the same motion; here it is only waited for.)
            self.checkpoint("clicked a team on page 1", first, before,
                            motion=[(arguments.click, "flash"), (arguments.click, "transform")])

            before = page_seq(second)
            self.add_team(second, arguments.team, arguments.zone)
            self.checkpoint("added a team in a new zone on page 2", second, before,
                            motion=[(arguments.zone, "enter"), (arguments.team, "enter"), (arguments.team, "flash")])
            # Once the new section has slid in, while it still flashes.
            time.sleep(0.6)
            second.save_screenshot(arguments.screenshot)
            result["message"] = second.find_element(By.ID, "message").text

            before = page_seq(second)
            self.add_team(second, arguments.markup, arguments.markup_zone)
            self.checkpoint("added a team named as markup on page 2", second, before)
            result["markup"] = {
                "alerts": [alert_open(driver) for driver in self.pages],
                "injectedElements": [driver.execute_script(
                    "return document.querySelectorAll('#table script, #table img, #table b').length") for driver in self.pages],
            }

            first.refresh()
            self.open_page(first, 1)
            self.checkpoint("reloaded page 1")
            result["markup"]["alertsAfterReload"] = alert_open(first)

            # Every kind of change, in quick succession, while both pages watch.
            request = urllib.request.Request(f"{arguments.url}/_test/random-writes?count={arguments.random_writes}", method="POST")
            with urllib.request.urlopen(request, timeout=300) as response:
                response.read()
            self.checkpoint(f"{arguments.random_writes} random writes")

            # A missed batch, then a batch that does not fit the table: each time page 2 asks
            # for a snapshot and shows the table again.
            for name, message in [
                ("a gap in the batches on page 2", "{type: 'batch', seq: window.worldCup.seq + 2, batch: EMPTY}"),
                ("a batch that does not fit on page 2", "{type: 'batch', seq: window.worldCup.seq + 1, batch: BAD}"),
            ]:
                snapshots = second.execute_script("return window.worldCup.snapshots")
                second.execute_script(INJECT.replace("MESSAGE", message))
                wait(f"{name}: a new snapshot", lambda: second.execute_script(
                    "return window.worldCup.snapshots > arguments[0] && !window.worldCup.awaitingSnapshot", snapshots))
                self.checkpoint(name)

            with open(arguments.fixture) as file:
                result["replay"] = first.execute_script(REPLAY, json.load(file))
            result["feeds"] = [driver.execute_script("return window.worldCup") for driver in self.pages]
            result["consoleErrors"] = [entry["message"] for driver in self.pages
                                       for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
            result["checkpoints"] = self.checkpoints
            return result
        finally:
            for driver in self.pages:
                driver.quit()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--click", required=True)
    parser.add_argument("--team", required=True)
    parser.add_argument("--zone", required=True)
    parser.add_argument("--markup", required=True)
    parser.add_argument("--markup-zone", required=True)
    parser.add_argument("--fixture", required=True)
    parser.add_argument("--random-writes", type=int, default=40)
    parser.add_argument("--screenshot", required=True)
    parser.add_argument("--width", type=int, default=1100)
    parser.add_argument("--height", type=int, default=900)
    arguments = parser.parse_args()
    print_report(lambda: Session(arguments).run())


def print_report(run):
    """Prints what `run` returns as JSON; when it fails, prints {"error": ...} and exits 1."""
    try:
        print(json.dumps(run()))
    except Failure as failure:
        print(json.dumps({"error": str(failure)}))
        sys.exit(1)
    except Exception as error:
        print(json.dumps({"error": f"{type(error).__name__}: {error}"}))
        sys.exit(1)


if __name__ == "__main__":
    main()
