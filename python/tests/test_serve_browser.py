"""`heterodox serve` in a real browser: headless Chromium (Debian's
chromium and chromium-driver, installed by `make test`) plays a short game
of every variant against the random agent by clicking the board, the
reserves and the chooser (a Hostage exchange, a Poison poisoning and cure,
Mad Scientist part operations, a Traitor selection and announcement), and
checks the board and the move list. Waits are explicit: the page sets
`data-busy` on its body while a request is out and `data-version` to the
game's version once drawn.

Set HETERODOX_SCREENSHOTS=DIR to keep a screenshot of each game.
"""

import json
import os
import shutil
import subprocess
import urllib.request
from pathlib import Path

import pytest

selenium = pytest.importorskip("selenium", reason="selenium is installed by `make setup`")
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
BINARY = ROOT / "target" / "release" / "heterodox"
WAIT = 20


@pytest.fixture(scope="module")
def server():
    assert BINARY.exists(), f"{BINARY} is built by `make build-rust`"
    process = subprocess.Popen(
        [str(BINARY), "serve", "--port", "0", "--device", "cpu", "--agent", "random"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = process.stdout.readline()
        assert line.startswith("heterodox serve: http://"), line
        yield line.split()[2]
    finally:
        process.kill()
        process.wait()


@pytest.fixture(scope="module")
def browser():
    chromium = shutil.which("chromium")
    driver_path = shutil.which("chromedriver")
    assert chromium and driver_path, "chromium and chromium-driver are installed by `make setup`"
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    yield driver
    driver.quit()


class Page:
    def __init__(self, driver, url):
        self.driver = driver
        self.url = url

    def wait(self, condition, what):
        WebDriverWait(self.driver, WAIT).until(lambda d: condition(), message=what)

    def idle(self):
        body = self.driver.find_element(By.TAG_NAME, "body")
        return body.get_attribute("data-busy") == "0" and body.get_attribute("data-version") != ""

    def status(self):
        return self.driver.find_element(By.ID, "status").text

    def wait_for_my_move(self):
        self.wait(lambda: self.idle() and self.status().startswith("Your move"), "the agent's reply")

    def new_game(self, variant, black="random", fen=None, options=None):
        self.driver.get(self.url)
        self.wait(self.idle, "the first game")
        old = self.driver.execute_script("return location.hash")
        Select(self.driver.find_element(By.ID, "variant")).select_by_value(variant)
        for key, value in (options or {}).items():
            field = self.driver.find_element(By.ID, "option-" + key)
            field.clear()
            field.send_keys(value)
        Select(self.driver.find_element(By.ID, "white")).select_by_value("human")
        Select(self.driver.find_element(By.ID, "black")).select_by_value(black)
        if fen:
            self.driver.find_element(By.ID, "fen").send_keys(fen)
        self.driver.find_element(By.ID, "start").click()
        self.wait(lambda: self.driver.execute_script("return location.hash") != old and self.idle(), "the new game")
        self.wait_for_my_move()

    def api(self, path):
        params = dict(p.split("=") for p in self.driver.execute_script("return location.hash")[1:].split("&"))
        separator = "&" if "?" in path else "?"
        url = f"{self.url}api/games/{params['game']}{path}{separator}token={params['token']}"
        with urllib.request.urlopen(url) as response:
            return json.load(response)

    def notation(self, long):
        """The standard notation of the legal move written `long`."""
        moves = self.api("/legal")["moves"]
        return next(m["notation"] for m in moves if m["long"] == long)

    def click(self, target):
        self.driver.find_element(By.CSS_SELECTOR, f'#board [data-target="{target}"]').click()

    def choose(self, notation):
        buttons = self.driver.find_elements(By.CSS_SELECTOR, "#chooser button.choice")
        assert notation in [b.text for b in buttons], [b.text for b in buttons]
        next(b for b in buttons if b.text == notation).click()

    def play(self, *targets, choice=None):
        """Clicks `targets` (and a chooser button), then waits for the reply."""
        version = self.driver.find_element(By.TAG_NAME, "body").get_attribute("data-version")
        for target in targets:
            self.click(target)
        if choice:
            self.choose(choice)
        self.wait(
            lambda: self.driver.find_element(By.TAG_NAME, "body").get_attribute("data-version") != version,
            f"the move {targets}",
        )
        self.wait_for_my_move()

    def rows(self):
        return [
            [cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
            for row in self.driver.find_elements(By.CSS_SELECTOR, "#moves tr.move")
        ]

    def drawn(self, target, marks):
        """The texts of the `marks` (a CSS selector: ``text.count``,
        ``text.countdown``) drawn on `target`: a square, a prison or a hand."""
        found = self.driver.find_elements(By.CSS_SELECTOR, f'#board [data-target="{target}"] {marks}')
        return [mark.text for mark in found]

    def piece(self, square):
        texts = self.driver.find_elements(By.CSS_SELECTOR, f'#board [data-target="{square}"] text.piece')
        return (texts[0].text, texts[0].get_attribute("class")) if texts else None

    def shot(self, name):
        folder = os.environ.get("HETERODOX_SCREENSHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            self.driver.save_screenshot(str(Path(folder) / f"{name}.png"))


@pytest.fixture()
def page(server, browser):
    return Page(browser, server)


def test_chess_by_clicks_flip_undo_typed_move_and_pgn(page):
    page.new_game("chess")
    page.play("e2", "e4")
    rows = page.rows()
    assert rows[0][:2] == ["1.", "e4"] and rows[0][2], rows
    assert page.piece("e4") == ("\u265f", "piece white")
    # A typed move in the variant's notation.
    version = page.driver.find_element(By.TAG_NAME, "body").get_attribute("data-version")
    page.driver.find_element(By.ID, "move-text").send_keys("Nf3\n")
    page.wait(lambda: page.driver.find_element(By.TAG_NAME, "body").get_attribute("data-version") != version, "Nf3")
    page.wait_for_my_move()
    assert [r[1] for r in page.rows()] == ["e4", "Nf3"]
    page.driver.find_element(By.ID, "flip").click()
    page.wait(
        lambda: page.idle()
        and page.driver.find_element(By.ID, "a1").get_attribute("x") == "335",
        "the flipped board",
    )
    page.driver.find_element(By.ID, "undo").click()
    page.wait(lambda: page.idle() and len(page.rows()) == 1, "the undo")
    assert page.piece("f3") is None and page.piece("g1") == ("\u265e", "piece white")
    href = page.driver.find_element(By.ID, "pgn").get_attribute("href")
    with urllib.request.urlopen(href) as response:
        pgn = response.read().decode()
    assert '[Variant "chess"]' in pgn and "\n1. e4 " in pgn, pgn
    position = page.driver.find_element(By.ID, "position").get_attribute("value")
    assert position.split("/")[4] == "4P3", position
    page.shot("chess")


def test_hostage_exchange_by_clicking_the_prisons(page):
    fen = "r1bq1b1r/ppp3pp/2n1k3/3np3/2B5/5Q2/PPPP1PPP/RNB1K2R[pp/NP/-/-] w KQ - 2 8"
    page.new_game("hostage", fen=fen)
    expected = page.notation("P-P@e3")
    page.play("white-prison-P", "black-prison-P", "e3")
    assert page.rows()[0][1] == expected == "(P-P)*e3"
    assert page.piece("e3") == ("\u265f", "piece white")
    # White's prison held two black pawns and gave one back.
    assert page.drawn("white-prison-P", "text.count") == ["1"]
    page.shot("hostage")


def test_poison_poisoning_and_cure(page):
    fen = "h5k1/5ppp/2nd4/2n5/3H4/8/1B3PPP/5DK1 w - - 0 1 g1:4,d6:2"
    page.new_game("poison", fen=fen)
    poison = page.notation("d4*c5")
    page.play("d4", "c5")
    assert page.rows()[0][1] == poison == "xHd4[c5,5;d6,1]"
    assert page.drawn("c5", "text.countdown") == ["5", "5"]
    cure = page.notation("f1~g1")
    page.play("f1", "g1")
    assert page.rows()[1][1] == cure
    assert page.drawn("g1", "text.countdown") == []
    page.shot("poison")


def test_mad_scientist_part_operations(page):
    page.new_game("madscientist")
    # The Scientist takes a Ferz off the piece on d1: a chooser asks which part.
    page.click("d1")
    page.play(choice="F-d1")
    assert page.rows()[0][1] == "F-d1"
    assert page.drawn("white-hand-F", "text.count") == ["1"]
    # ... and attaches it again from the hand.
    attach = page.notation("F+d1")
    page.play("white-hand-F", "d1")
    assert page.rows()[1][1] == attach
    assert page.driver.find_elements(By.CSS_SELECTOR, '[data-target="white-hand-F"]') == []
    page.shot("madscientist")


def test_traitor_selection_and_announcement(page):
    page.new_game("traitor")
    # The secret selection: two of Black's men, clicked, then confirmed.
    page.click("a8")
    page.click("d7")
    confirm = page.driver.find_element(By.ID, "confirm-selection")
    assert confirm.is_enabled()
    version = page.driver.find_element(By.TAG_NAME, "body").get_attribute("data-version")
    confirm.click()
    page.wait(lambda: page.driver.find_element(By.TAG_NAME, "body").get_attribute("data-version") != version, "the selection")
    page.wait_for_my_move()
    assert page.rows()[0][1:] == ["(S-d7,Ra8)", "(secret)"]
    reply = page.driver.find_element(By.ID, "agent-reply").text
    assert reply.startswith("random (black) made its secret choice"), reply
    page.play("e2", "e4")
    # The announcement: click the traitor, confirm it, then move.
    page.play("a8", choice="(T-Ra8)")
    page.play("d2", "d4")
    assert page.rows()[2][1] == "(T-Ra8)d4", page.rows()
    notes = [t.text for t in page.driver.find_elements(By.CSS_SELECTOR, "#board text.note")]
    assert "secrets: white d7, black hidden" in notes, notes
    assert any(n.startswith("announced a8 (from a8): moved by white") for n in notes), notes
    page.shot("traitor")
